// Post-build step: writes the public pages (landing, sign-in, in French and English) as real HTML into the
// build, from the `public.html` template and the build-time renderer (vite.ssr.config.ts), so that they paint
// before any JavaScript runs. The sign-in page is then hydrated by the light entry of the template; the landing
// page is static: no framework, only its own small classic script (src/prerendered/landing-boot.ts).
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildSync } from 'esbuild'
import type { Locale } from '../contract/locale.ts'
import { PUBLIC_PAGES } from '../contract/public-pages.ts'
import { MANIFEST_HREF } from '../src/lib/locale.ts'
import type { RenderedPage } from '../src/prerendered/render.tsx'
import type { ViteManifest } from '../src/pwa/build-manifest.ts'
import { PRERENDER_OUT_DIR } from '../vite.ssr.config.ts'
import { PUBLIC_ENTRY, staticFiles } from './vite-manifest.ts'

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)

function replaceOnce(html: string, search: string, replacement: string): string {
  if (!html.includes(search)) throw new Error(`The page template lacks ${search}`)
  return html.replace(search, () => replacement)
}

/**
 * The chunks a page needs beyond what the template's entry already preloads: its own module (a lazy chunk,
 * so that the landing page never loads the sign-in form) with its imports, which carry their translations.
 */
export function preloadsFor(manifest: ViteManifest, keys: string[]): string[] {
  return [...staticFiles(manifest, keys, staticFiles(manifest, [PUBLIC_ENTRY]))]
}

/**
 * The stylesheet inlined: the page then paints from its HTML alone, with no request blocking the first paint
 * (the whole sheet is about 8 KiB compressed; the SPA keeps it as a cached file).
 */
export function inlineStylesheets(html: string, read: (file: string) => string): string {
  return html.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g,
    (_, file: string) => `<style>${read(file).replaceAll('</style', '<\\/style')}</style>`,
  )
}

/** The landing page's script source (bundled alone, so that it carries no framework). */
export const LANDING_SCRIPT_ENTRY = 'src/prerendered/landing-main.ts'

/** The landing page's whole script: one minified classic script, named by its content like Vite's files. */
export function buildLandingScript(): { file: string; code: string } {
  const [output] = buildSync({
    entryPoints: [LANDING_SCRIPT_ENTRY],
    bundle: true,
    format: 'iife',
    minify: true,
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  }).outputFiles
  if (!output) throw new Error(`esbuild wrote nothing for ${LANDING_SCRIPT_ENTRY}`)
  const hash = createHash('sha256').update(output.text).digest('base64url').slice(0, 8)
  return { file: `assets/landing-${hash}.js`, code: output.text }
}

/**
 * The template made static: without the module entry and its preloads (the framework), with `script` instead,
 * deferred so that it never holds up the first paint.
 */
export function staticTemplate(template: string, script: string): string {
  const bare = template
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
  return replaceOnce(bare, '</head>', `<script defer src="/${script}"></script>\n</head>`)
}

/** The template filled with one rendered page: language, description, the page's chunks preloaded, the HTML. */
export function fillTemplate(
  template: string,
  page: { page: string; locale: string },
  rendered: RenderedPage,
  preloads: string[],
): string {
  let html = replaceOnce(template, '<html lang="fr">', `<html lang="${page.locale}">`)
  html = html.replace('href="/manifest.webmanifest"', `href="${MANIFEST_HREF[page.locale as Locale]}"`)
  html = replaceOnce(html, '<title>Trousseau</title>', `<title>${escapeHtml(rendered.title)}</title>`)
  html = replaceOnce(
    html,
    '<meta name="description" content="" />',
    `<meta name="description" content="${escapeHtml(rendered.description)}" />`,
  )
  const links = preloads.map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`)
  html = replaceOnce(html, '</head>', `${links.join('\n')}\n</head>`)
  const noscript = rendered.noscript ? `<noscript>${escapeHtml(rendered.noscript)}</noscript>` : ''
  return replaceOnce(
    html,
    '<div id="root"></div>',
    `<div id="root" data-page="${page.page}" data-locale="${page.locale}">${rendered.html}</div>${noscript}`,
  )
}

if (import.meta.main) {
  const dist = resolve(process.argv[2] ?? 'dist')
  const { renderPublicPage } = (await import(
    pathToFileURL(resolve(PRERENDER_OUT_DIR, 'render.js')).href
  )) as typeof import('../src/prerendered/render.tsx')
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8')) as ViteManifest
  const template = inlineStylesheets(readFileSync(join(dist, 'public.html'), 'utf8'), (file) =>
    readFileSync(join(dist, file), 'utf8'),
  )
  if (template.includes('rel="stylesheet"'))
    throw new Error('A stylesheet of the page template was not inlined')
  const landingScript = buildLandingScript()
  writeFileSync(join(dist, landingScript.file), landingScript.code)
  const landingTemplate = staticTemplate(template, landingScript.file)
  for (const page of PUBLIC_PAGES) {
    const rendered = renderPublicPage(page.page, page.locale)
    const html =
      page.page === 'landing'
        ? fillTemplate(landingTemplate, page, rendered, [])
        : fillTemplate(template, page, rendered, preloadsFor(manifest, [`src/prerendered/${page.page}.tsx`]))
    const target = join(dist, page.file)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, html)
  }
  // The template is not a page of its own.
  rmSync(join(dist, 'public.html'))
  console.log(`Prerendered ${PUBLIC_PAGES.length} public pages`)
}
