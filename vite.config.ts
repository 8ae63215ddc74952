import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'
import pkg from './package.json' with { type: 'json' }
import { bundledPackages } from './scripts/vite-bundled-packages.ts'
import { browserEndpointTables } from './scripts/vite-endpoint-tables.ts'
import { inlineMessages } from './scripts/vite-inline-messages.ts'
import { webPlugins } from './vite.plugins.ts'
import { pwaPlugin } from './vite.pwa.ts'

const version = process.env.APP_VERSION ?? `${pkg.version}+${new Date().toISOString()}`
/** TanStack Form's devtools bridge, left out of the production build (the file says why). */
const FORM_DEVTOOLS_OFF = fileURLToPath(new URL('src/lib/form-devtools-off.ts', import.meta.url))
const apiTarget = process.env.API_PROXY_TARGET ?? 'http://localhost:3001'

export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(version) },
  plugins: [
    browserEndpointTables(),
    ...webPlugins(),
    inlineMessages({ registry: fileURLToPath(new URL('src/lib/i18n-messages.ts', import.meta.url)) }),
    {
      name: 'trousseau-version-file',
      generateBundle() {
        this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version }) })
      },
    },
    pwaPlugin(),
    bundledPackages(),
    {
      name: 'trousseau-no-form-devtools',
      apply: 'build',
      enforce: 'pre',
      resolveId: (id) => (id === '@tanstack/devtools-event-client' ? FORM_DEVTOOLS_OFF : null),
    },
  ],
  build: {
    manifest: true,
    sourcemap: false,
    target: 'es2022',
    // The SPA's shell, and the template of the prerendered public pages (scripts/prerender.ts fills it).
    rolldownOptions: {
      input: { index: 'index.html', public: 'public.html' },
      preserveEntrySignatures: false,
      output: {
        // A few larger chunks for the libraries every page loads compress better and cost fewer requests than
        // dozens of small ones. React (with Lingui) serves the prerendered pages too; the router and the query
        // cache only the SPA.
        codeSplitting: {
          // Over HTTP/1.1 (six connections) each request costs a round trip: small shared chunks (an icon, a
          // helper) are inlined into the chunks that use them rather than fetched on their own.
          experimentalInlineCommonChunks: { maxSize: 6000 },
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|use-sync-external-store|@lingui[\\/](core|react|message-utils)|@tanstack[\\/](store|react-store))[\\/]|[\\/]contract[\\/](locale|public-pages)\.ts$/,
              priority: 2,
            },
            {
              name: 'spa',
              test: /node_modules[\\/]@tanstack[\\/](react-router|router-core|history|query-core|react-query|react-query-persist-client|query-persist-client-core|query-async-storage-persister)[\\/]/,
              priority: 1,
            },
            // The contract's schemas and valibot: every SPA page parses answers with several of them. Left to the
            // automatic splitting they were inlined, in copies, into the entry, the /app layout and the pages (the
            // layout's and the page's copies both loaded): one chunk is 0.5 to 4 KiB smaller on every /app page.
            // The locale helpers go with React, the prerendered pages need them and no schema.
            // The chunk holds the schemas the shell and most pages use, named here: a feature's own schemas (the
            // activity log, reports, found-key reports, receipts, imports, labels…) go with its screens, so a new
            // feature does not weigh on every page by default. The endpoint tables stay out of it too: each goes
            // with the data layer that calls it.
            // What the prerendered sign-in page needs of it (valibot, the session and error schemas) is a chunk of
            // its own: the sign-in page does not load every screen's schemas, which grow with each feature.
            {
              name: 'contract-core',
              test: /[\\/]contract[\\/](auth|errors|locale-schema|person)\.ts$|node_modules[\\/]valibot[\\/]/,
              priority: 1,
            },
            {
              name: 'contract',
              test: /[\\/]contract[\\/](common|permissions|organizations|keychains|tags|transfers|transfer-state|scans|scan-value|calendar-day|commerce|pricing)\.ts$/,
              priority: 0,
            },
          ],
        },
      },
    },
  },
  server: { port: 3000, proxy: { '/api': { target: apiTarget, changeOrigin: false } } },
  preview: { port: 3000 },
})
