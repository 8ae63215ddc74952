import { lingui, linguiTransformerBabelPreset } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import tailwindcss from '@tailwindcss/vite'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import type { PluginOption } from 'vite'

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
