import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Plugin, PluginOption } from 'vite'
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa'
import { MANIFEST_HREF } from './src/lib/locale.ts'
import { pwaManifest, pwaManifestEn } from './src/pwa/manifest.ts'
import { deferredListScript, splitPrecache, type ViteManifest } from './src/pwa/precache-split.ts'
import { DEFERRED_CACHE, DEFERRED_LIST_SCRIPT, SW_SCOPE, SW_URL } from './src/pwa/worker.ts'

type ManifestTransform = NonNullable<NonNullable<VitePWAOptions['workbox']>['manifestTransforms']>[number]

/**
 * The service worker (Workbox, generated) and the web app manifest. The install precaches the shell and the
 * field routes only; the other files of the build (office routes and their chunks) are listed in
 * sw-deferred-list.js, and public/sw-deferred.js caches them when an idle page asks (src/pwa/register-when-idle.ts).
 */
export function pwaPlugin(): PluginOption[] {
  let outDir = resolve('dist')
  const outDirOf: Plugin = {
    name: 'trousseau-precache-split',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
  }
  // Workbox runs this in vite-plugin-pwa's closeBundle, after Vite wrote the bundle and .vite/manifest.json.
  const splitByRoute: ManifestTransform = async (entries) => {
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as ViteManifest
    const { first, deferred } = splitPrecache(entries, manifest)
    writeFileSync(join(outDir, DEFERRED_LIST_SCRIPT), deferredListScript(deferred))
    return { manifest: first, warnings: [] }
  }
  return [
    outDirOf,
    {
      name: 'trousseau-english-manifest',
      generateBundle() {
        this.emitFile({
          type: 'asset',
          fileName: MANIFEST_HREF.en.slice(1),
          source: JSON.stringify(pwaManifestEn),
        })
      },
    },
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      // The prerendered pages register the same worker without workbox-window (src/pwa/register-when-idle.ts).
      filename: SW_URL.slice(1),
      scope: SW_SCOPE,
      manifest: pwaManifest,
      includeAssets: ['favicon.svg', 'robots.txt', 'icons/*.png'],
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        // Prerendered public pages are served by the server; offline, the SPA shell renders them.
        globIgnores: ['pages/**', 'public.html'],
        manifestTransforms: [splitByRoute],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        runtimeCaching: [
          {
            // Hashed, immutable build files that are not precached: the deferred ones, warmed when idle or
            // fetched on first use online. /api never matches.
            urlPattern: ({ sameOrigin, url }) => sameOrigin && url.pathname.startsWith('/assets/'),
            handler: 'CacheFirst',
            options: { cacheName: DEFERRED_CACHE },
          },
        ],
        // Background Sync, where the browser has it, wakes the outbox even when the app was in the background;
        // the deferred list, then the script that caches it when asked and prunes it when a new build activates.
        importScripts: ['sw-outbox-sync.js', DEFERRED_LIST_SCRIPT, 'sw-deferred.js', 'sw-push.js'],
      },
    }),
  ]
}
