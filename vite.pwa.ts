import { VitePWA } from 'vite-plugin-pwa'
import { pwaManifest } from './src/pwa/manifest.ts'

/** The service worker (Workbox, generated) and the web app manifest. */
export function pwaPlugin() {
  return VitePWA({
    registerType: 'prompt',
    injectRegister: false,
    manifest: pwaManifest,
    includeAssets: ['favicon.svg', 'robots.txt', 'icons/*.png'],
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
      // Prerendered public pages are served by the server; offline, the SPA shell renders them.
      globIgnores: ['pages/**', 'public.html'],
      navigateFallback: '/index.html',
      navigateFallbackDenylist: [/^\/api\//],
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      runtimeCaching: [],
      // Background Sync, where the browser has it, wakes the outbox even when the app was in the background.
      importScripts: ['sw-outbox-sync.js'],
    },
  })
}
