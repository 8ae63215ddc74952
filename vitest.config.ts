import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { databaseDependentTests } from './tests/database-dependent.ts'
import { webPlugins } from './vite.plugins.ts'

const SERVER_TESTS = ['server/**/*.test.ts', 'contract/**/*.test.ts', 'scripts/**/*.test.ts']

const serverProject = (name: string, include: string[]): TestProjectInlineConfiguration => ({
  test: {
    name,
    environment: 'node',
    include,
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Server test files share no global state (each opens its own database and app); reusing a worker's
    // loaded modules saves re-importing the app, drizzle and PGlite for every file.
    isolate: false,
  },
})

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core machines this runs on.
    maxWorkers: 2,
    projects: [
      serverProject('server', SERVER_TESTS),
      // `npm run test:postgres` (TEST_DATABASE_URL set): the server suite's files whose outcome can depend on
      // the database, on PostgreSQL; the others run the same code either way, and run once, on PGlite.
      ...(process.env.TEST_DATABASE_URL
        ? [
            serverProject(
              'server-postgres',
              databaseDependentTests(fileURLToPath(new URL('.', import.meta.url)), SERVER_TESTS),
            ),
          ]
        : []),
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
