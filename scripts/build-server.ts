// `npm run build`, server part: the API as one ES module, `dist-server/server.mjs`, run by `npm start`.
// Node can run the TypeScript sources as they are (the tests and `npm run dev` do), but resolving each of the
// few hundred modules of the dependencies costs the process about 200 MiB that it never gives back; bundled,
// it starts at about 100 MiB. PGlite (WebAssembly files beside its module), the Stripe SDK (loaded only when
// used) and pino stay outside, resolved from node_modules at run time.
import { build } from 'esbuild'

await build({
  entryPoints: ['server/main.ts'],
  outfile: 'dist-server/server.mjs',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: ['@electric-sql/pglite', 'stripe', 'pino', 'pg-native'],
  // CommonJS dependencies bundled into an ES module still call `require` for Node's own modules.
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  logLevel: 'warning',
})
