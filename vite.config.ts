import { defineConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import pkg from './package.json' with { type: 'json' }
import { pwaManifest } from './src/pwa/manifest.ts'
import { webPlugins } from './vite.plugins.ts'

const version = process.env.APP_VERSION ?? `${pkg.version}+${new Date().toISOString()}`
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3001'

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(version) },
  plugins: [
    ...webPlugins(),
    {
      name: 'trousseau-version-file',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version }) })
      },
    },
    VitePWA({
      registerType: 'prompt',
      injectRegister: false,
      manifest: pwaManifest,
      includeAssets: ['favicon.svg', 'robots.txt', 'icons/*.png'],
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: [/^\/api\//],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        runtimeCaching: [],
        // Background Sync, where the browser has it, wakes the outbox even when the app was in the background.
        importScripts: ['sw-outbox-sync.js'],
      },
    }),
  ],
  build: { manifest: true, sourcemap: false, target: 'es2022' },
  server: { port: 3000, proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  preview: { port: 3000 },
})
