// Knip (`npm run knip`, part of `npm test`): no unused file, export, exported type or dependency.
// Its plugins (Vite, Vitest, TanStack Router, Lingui, Biome, Drizzle, Stryker, vite-plugin-pwa…) read those tools'
// configs and package.json's scripts; the entries named here are the ones none of them names.
import type { KnipConfig } from 'knip'

const config: KnipConfig = {
  entry: [
    // The API: bundled by esbuild (scripts/build-server.ts), run by `npm start` (`exec node scripts/start.ts`).
    'server/main.ts',
    'scripts/start.ts',
    // The prerendered public pages: their renderer is vite.ssr.config.ts's `build.ssr` entry, the landing
    // page's script is bundled by esbuild (scripts/prerender.ts).
    'src/prerendered/render.tsx',
    'src/prerendered/landing-main.ts',
    // Plain scripts the generated service worker imports (`importScripts` in vite.pwa.ts).
    'public/sw-*.js',
    // Run by hand with node (docs/testing.md, docs/performance.md); the mutation runs' Vitest config is named
    // by stryker.config.mjs.
    'bench/api-ab.ts',
    'bench/mutation/*.ts',
  ],
  ignoreBinaries: [
    // PostgreSQL's client tools, installed with the database (scripts/backup.ts, scripts/restore.ts).
    'pg_dump',
    'pg_restore',
    'psql',
  ],
}

export default config
