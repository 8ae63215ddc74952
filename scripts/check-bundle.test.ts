import { describe, expect, it } from 'vitest'
import budget from '../bundle-budget.json' with { type: 'json' }
import {
  DEFERRED,
  deferredFiles,
  gzippedKiB,
  type Manifest,
  pathOfRouteFile,
  publicFilesForPage,
  routeFigures,
  scriptsOfPage,
  spaFilesForPage,
  spaRoutes,
  targetOf,
  wireKiB,
} from './check-bundle.ts'

const WORKBOX = 'node_modules/workbox-window/build/workbox-window.prod.es5.mjs'
const route = (file: string) => `src/routes/{-$locale}/${file}?tsr-split=component---loader`

const manifest: Manifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_shared.js'],
    dynamicImports: [
      'node_modules/sw-helper.js',
      route('route.tsx'),
      route('app/route.tsx'),
      route('app/scan.tsx'),
      route('app/keychains/$id/index.tsx'),
      route('app/organizations/$id/[_]new-order.tsx'),
      DEFERRED,
      WORKBOX,
    ],
  },
  'public.html': { file: 'assets/public.js', isEntry: true, imports: ['_shared.js'] },
  'src/prerendered/sign-in.tsx': { file: 'assets/sign-in.js', imports: ['_form.js'] },
  '_form.js': { file: 'assets/form.js' },
  'node_modules/sw-helper.js': { file: 'assets/sw-helper.js' },
  '_shared.js': { file: 'assets/shared.js' },
  '_heavy.js': { file: 'assets/heavy.js', imports: ['_shared.js'] },
  [route('route.tsx')]: { file: 'assets/locale-layout.js' },
  [route('app/route.tsx')]: { file: 'assets/app-layout.js' },
  [route('app/scan.tsx')]: { file: 'assets/scan.js', imports: ['_heavy.js', 'index.html'] },
  [route('app/keychains/$id/index.tsx')]: { file: 'assets/keychain.js' },
  [route('app/organizations/$id/[_]new-order.tsx')]: { file: 'assets/new-order.js' },
  [DEFERRED]: { file: 'assets/field-mode.js', imports: ['_dexie.js', '_shared.js'] },
  [WORKBOX]: { file: 'assets/workbox.js' },
  '_dexie.js': { file: 'assets/dexie.js' },
}

describe('bundle budget', () => {
  it('names every page of the SPA from its route file, layouts excluded', () => {
    expect(pathOfRouteFile('app/keychains/$id/index.tsx')).toBe('/app/keychains/$id')
    expect(pathOfRouteFile('index.tsx')).toBe('/')
    expect(pathOfRouteFile('app/organizations/$id/[_]new-order.tsx')).toBe(
      '/app/organizations/$id/_new-order',
    )
    expect([...spaRoutes(manifest).keys()].sort()).toEqual([
      '/app/keychains/$id',
      '/app/organizations/$id/_new-order',
      '/app/scan',
    ])
    expect(spaRoutes(manifest).get('/app/scan')).toEqual([
      route('app/route.tsx'),
      route('route.tsx'),
      route('app/scan.tsx'),
    ])
  })

  it('counts the entry, the layouts and the page, with what they import, once', () => {
    const files = spaFilesForPage(manifest, spaRoutes(manifest).get('/app/scan') ?? [])
    expect([...files].sort()).toEqual([
      'assets/app-layout.js',
      'assets/heavy.js',
      'assets/index.js',
      'assets/locale-layout.js',
      'assets/scan.js',
      'assets/shared.js',
      'assets/sw-helper.js',
    ])
  })

  it('counts the sign-in page from its light entry and its own chunk only', () => {
    expect([...publicFilesForPage(manifest, 'sign-in')].sort()).toEqual([
      'assets/form.js',
      'assets/public.js',
      'assets/shared.js',
      'assets/sign-in.js',
    ])
  })

  it('counts the static landing page from the scripts its HTML loads', () => {
    const html =
      '<head><script>inline()</script><script defer src="/assets/landing-x.js"></script>' +
      '<link rel="modulepreload" crossorigin href="/assets/react.js" /><link rel="icon" href="/favicon.svg" />' +
      '<script type="module" crossorigin src="/assets/public.js"></script></head>'
    expect([...scriptsOfPage(html)].sort()).toEqual([
      'assets/landing-x.js',
      'assets/public.js',
      'assets/react.js',
    ])
    expect(scriptsOfPage('<html><body><a href="/a.js">a</a></body></html>').size).toBe(0)
  })

  it('gives every route a budget: its own, or the default', () => {
    const figures = routeFigures(manifest, { ...budget, routes: { '/': 100, '/app/scan': 130 } }, '')
    expect(targetOf(budget, '/app/scan')).toBe(budget.targets.routes['/app/scan'])
    expect(targetOf(budget, '/app/keychains/$id')).toBe(budget.targets.defaultKiB)
    expect(figures.map(({ route, budgetKiB }) => [route, budgetKiB])).toEqual([
      ['/', 100],
      ['/sign-in', budget.defaultKiB],
      ['/app/scan', 130],
      ['/app/keychains/$id', budget.defaultKiB],
      ['/app/organizations/$id/_new-order', budget.defaultKiB],
    ])
  })

  it('refuses a chunk that is not in the manifest', () => {
    expect(() => spaFilesForPage(manifest, ['gone.tsx'])).toThrow(/no chunk gone.tsx/)
  })

  it('measures gzipped JavaScript only', () => {
    const big = Buffer.from('x'.repeat(100_000))
    const kib = gzippedKiB(['a.js', 'b.css'], () => big)
    expect(kib).toBeGreaterThan(0)
    expect(kib).toBeLessThan(1)
    expect(gzippedKiB(['b.css'], () => big)).toBe(0)
  })

  it('counts on the wire the smallest variant the server has of each file, and the raw file when none', () => {
    const sizes: Record<string, number> = { 'a.js': 1000, 'a.js.br': 200, 'a.js.gz': 300, 'b.js': 2048 }
    expect(wireKiB(['a.js', 'b.js', 'c.css'], (file) => sizes[file] ?? null)).toBe((200 + 2048) / 1024)
    expect(() => wireKiB(['gone.js'], () => null)).toThrow(/missing/)
  })

  it('reports what loads once the page is idle apart: beyond the page, not counted in the page', () => {
    const page = spaFilesForPage(manifest, spaRoutes(manifest).get('/app/scan') ?? [])
    expect(page.has('assets/field-mode.js')).toBe(false)
    expect(page.has('assets/workbox.js')).toBe(false)
    expect([...deferredFiles(manifest, page)].sort()).toEqual([
      'assets/dexie.js',
      'assets/field-mode.js',
      'assets/workbox.js',
    ])
  })
})
