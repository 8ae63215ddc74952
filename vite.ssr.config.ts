import { defineConfig } from 'vite'
import { webPlugins } from './vite.plugins.ts'

/** Build-time renderer of the prerendered public pages (run by `npm run build`, used by scripts/prerender.ts). */
export const PRERENDER_OUT_DIR = 'node_modules/.cache/trousseau-prerender'

export default defineConfig({
  plugins: webPlugins(),
  logLevel: 'warn',
  publicDir: false,
  build: {
    ssr: 'src/prerendered/render.tsx',
    outDir: PRERENDER_OUT_DIR,
    emptyOutDir: true,
    target: 'node24',
    minify: false,
  },
})
