import { describe, expect, it } from 'vitest'
import { routeKey } from './build-manifest.ts'
import {
  deferredListScript,
  FIELD_ROUTE_FILES,
  type PrecacheEntry,
  splitPrecache,
  type ViteManifest,
} from './precache-split.ts'

/** A small build: the entry, every field route, two office routes, the light public entry. */
function fakeManifest(): ViteManifest {
  const manifest: ViteManifest = {
    'index.html': {
      file: 'assets/index-E.js',
      isEntry: true,
      imports: ['_react-R.js'],
      dynamicImports: [
        'src/offline/field-mode.ts',
        'node_modules/workbox-window/build/workbox-window.prod.es5.mjs',
        ...FIELD_ROUTE_FILES.map(routeKey),
        routeKey('app/orders/index.tsx'),
        routeKey('app/plans.tsx'),
      ],
    },
    '_react-R.js': { file: 'assets/react-R.js', css: ['assets/index-C.css'] },
    '_i18n-I.js': { file: 'assets/i18n-I.js' },
    'node_modules/workbox-window/build/workbox-window.prod.es5.mjs': { file: 'assets/workbox-window-W.js' },
    'src/offline/field-mode.ts': { file: 'assets/field-mode-F.js', imports: ['_db-D.js'] },
    '_db-D.js': { file: 'assets/db-D.js' },
    'node_modules/qr-scanner/qr-scanner.min.js': {
      file: 'assets/qr-scanner-Q.js',
      dynamicImports: ['node_modules/qr-scanner/qr-scanner-worker.min.js'],
    },
    'node_modules/qr-scanner/qr-scanner-worker.min.js': { file: 'assets/qr-scanner-worker-QW.js' },
    'src/features/cart/CartDialog.tsx': { file: 'assets/CartDialog-CD.js', imports: ['_Dialog-DL.js'] },
    '_AuthorizeTransferPanel-A.js': {
      file: 'assets/AuthorizeTransferPanel-A.js',
      name: 'AuthorizeTransferPanel',
      imports: ['index.html', '_datepicker-DP.js'],
    },
    '_datepicker-DP.js': { file: 'assets/datepicker-DP.js' },
    '_Dialog-DL.js': { file: 'assets/Dialog-DL.js' },
    '_orders-O.js': { file: 'assets/orders-shared-O.js', imports: ['_react-R.js'] },
    'public.html': {
      file: 'assets/public-P.js',
      isEntry: true,
      imports: ['_react-R.js'],
      dynamicImports: ['src/prerendered/landing.tsx'],
    },
    'src/prerendered/landing.tsx': { file: 'assets/landing-L.js' },
  }
  for (const file of FIELD_ROUTE_FILES)
    manifest[routeKey(file)] = {
      file: `assets/route-${file.replace(/\W/g, '_')}.js`,
      imports: ['_i18n-I.js'],
    }
  // The field routes' own lazy imports: the camera scanner (and its worker), the cart, the transfer panel.
  manifest[routeKey('app/scan.tsx')]!.dynamicImports = ['node_modules/qr-scanner/qr-scanner.min.js']
  manifest[routeKey('app/route.tsx')]!.dynamicImports = ['src/features/cart/CartDialog.tsx']
  manifest[routeKey('app/keychains/$id/index.tsx')]!.dynamicImports = ['_AuthorizeTransferPanel-A.js']
  manifest[routeKey('app/orders/index.tsx')] = {
    file: 'assets/orders-O.js',
    imports: ['_orders-O.js', 'index.html'],
  }
  manifest[routeKey('app/plans.tsx')] = { file: 'assets/plans-PL.js', imports: ['_Dialog-DL.js'] }
  return manifest
}

/** What Workbox globs from such a build: every file once, plus public files listed twice (includeAssets). */
function globbed(manifest: ViteManifest): PrecacheEntry[] {
  const built = Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])])
  const files = [
    'index.html',
    'manifest.webmanifest',
    'favicon.svg',
    'icons/icon-192.png',
    'sw-outbox-sync.js',
    'sw-deferred.js',
    'sw-push.js',
    ...new Set(built),
    'favicon.svg',
    'manifest.webmanifest',
  ]
  return files.map((url) => ({ url, revision: url.startsWith('assets/') ? null : 'r', size: 100 }))
}

const urls = (entries: PrecacheEntry[]) => entries.map((entry) => entry.url).sort()

describe('splitting the precache manifest', () => {
  it('precaches the shell, field routes, field mode and the QR scanner; defers office files', () => {
    const manifest = fakeManifest()
    const { first, deferred, dropped } = splitPrecache(globbed(manifest), manifest)

    expect(urls(first)).toEqual(
      [
        'index.html',
        'manifest.webmanifest',
        'favicon.svg',
        'icons/icon-192.png',
        'assets/index-E.js',
        'assets/react-R.js',
        'assets/index-C.css',
        'assets/i18n-I.js',
        'assets/workbox-window-W.js',
        'assets/field-mode-F.js',
        'assets/db-D.js',
        'assets/qr-scanner-Q.js',
        'assets/qr-scanner-worker-QW.js',
        ...FIELD_ROUTE_FILES.map((file) => `assets/route-${file.replace(/\W/g, '_')}.js`),
      ].sort(),
    )
    // Office routes and what only they (or the online-only lazy panels of field routes) load.
    expect(urls(deferred)).toEqual(
      [
        'assets/orders-O.js',
        'assets/orders-shared-O.js',
        'assets/plans-PL.js',
        'assets/Dialog-DL.js',
        'assets/CartDialog-CD.js',
        'assets/AuthorizeTransferPanel-A.js',
        'assets/datepicker-DP.js',
      ].sort(),
    )
    // The worker's own scripts, and the prerendered pages' chunks (the worker always answers the SPA shell).
    expect(urls(dropped)).toEqual(
      [
        'sw-outbox-sync.js',
        'sw-deferred.js',
        'sw-push.js',
        'assets/public-P.js',
        'assets/landing-L.js',
      ].sort(),
    )
  })

  it('keeps each file once, whatever the three sets', () => {
    const manifest = fakeManifest()
    const { first, deferred, dropped } = splitPrecache(globbed(manifest), manifest)
    const all = [...first, ...deferred, ...dropped].map((entry) => entry.url)
    expect(new Set(all).size).toBe(all.length)
    expect(new Set(all)).toEqual(new Set(globbed(manifest).map((entry) => entry.url)))
  })

  it('fails the build when a field route is missing, rather than deferring it silently', () => {
    const manifest = fakeManifest()
    delete manifest[routeKey('app/scan.tsx')]
    expect(() => splitPrecache(globbed(manifest), manifest)).toThrow(/app\/scan\.tsx/)
  })

  it('writes the deferred list as root paths for the worker', () => {
    const script = deferredListScript([
      { url: 'assets/orders-O.js', revision: null, size: 1 },
      { url: '/assets/plans-PL.js', revision: null, size: 1 },
    ])
    const self: { __TROUSSEAU_DEFERRED__?: string[] } = {}
    new Function('self', script)(self)
    expect(self.__TROUSSEAU_DEFERRED__).toEqual(['/assets/orders-O.js', '/assets/plans-PL.js'])
  })
})
