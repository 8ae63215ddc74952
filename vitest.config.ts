import { defineConfig } from 'vitest/config'
import { webPlugins } from './vite.plugins.ts'

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core machines this runs on.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['server/**/*.test.ts', 'contract/**/*.test.ts', 'scripts/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 60_000,
          // Server test files share no global state (each opens its own database and app); reusing a worker's
          // loaded modules saves re-importing the app, drizzle and PGlite for every file.
          isolate: false,
        },
      },
      {
        plugins: webPlugins(),
        test: {
          name: 'web',
          environment: 'jsdom',
          // One jsdom per worker rather than per file: about 15 s instead of 120 s for these files (2 cores).
          // Files that stub globals unstub them after each test; the setup file cleans the DOM after each test.
          isolate: false,
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/offline/**'],
          setupFiles: ['tests/setup-web.ts'],
        },
      },
      {
        plugins: webPlugins(),
        test: {
          // The field mode's store: Dexie keeps state of its own per module instance (live queries, the open
          // databases), which a file must not inherit from another; these files keep a fresh module graph each.
          name: 'web-offline',
          environment: 'jsdom',
          include: ['src/offline/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup-web.ts'],
        },
      },
    ],
  },
})
