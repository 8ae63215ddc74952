import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import type { PluginOption } from 'vite'

/**
 * The browser build runs Preact through its React compatibility layer (docs/decisions.md, "Preact in the
 * browser"): about 57 KiB gzipped less on every page than react-dom. The prerendered pages are rendered by
 * react-dom/server at build time (the same HTML), and the component tests run on React: the browser tests are
 * what proves the screens on Preact.
 */
export const PREACT_ALIASES = [
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
  { find: /^react$/, replacement: 'preact/compat' },
]

/** Plugins shared by the build and the component tests: routes, React, Lingui macros and catalogs, Tailwind. */
export function webPlugins(): PluginOption[] {
  return [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // A route's loader goes in its screen's chunk: detail routes' loaders only start the screen's query
      // (app/start-loading.ts) with the data layer, which in the entry would weigh on every page (+35 KiB
      // gzipped). Hovering a link still loads the chunk and starts the query before the screen renders.
      codeSplittingOptions: {
        defaultBehavior: [
          ['loader', 'component'],
          ['pendingComponent'],
          ['errorComponent'],
          ['notFoundComponent'],
        ],
      },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
      quoteStyle: 'single',
      semicolons: false,
    }),
    babel({ presets: [linguiTransformerBabelPreset()] }),
    react(),
    lingui(),
    tailwindcss(),
  ]
}
