/**
 * The project's root folder. This file sits one level below it (`server/paths.ts`), and so does the bundled
 * server (`dist/server.mjs`), so the same expression holds in both: files read at run time (migrations,
 * catalogs, package.json) are found from here, never from the importing file's own place.
 */
const projectRoot = new URL('../', import.meta.url)

export const fromRoot = (path: string) => new URL(path, projectRoot)
