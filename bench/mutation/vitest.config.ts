// The tests Stryker runs for one group of issue 22 (MUTATION_GROUP = contract | offline | rules): the
// specifications of that group's rules, not the whole suite. Most of contract/ is built when a module loads
// (schemas, tables), so each of its mutants reloads every test that runs: the group's own tests keep that
// affordable, and a rule counts as specified only when its own tests notice a change.
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { webPlugins } from '../../vite.plugins.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const group = process.env.MUTATION_GROUP ?? 'contract'
// MUTATION_TESTS (comma-separated globs) narrows the rules or offline group to some test files, e.g. the race
// tests for a run on PostgreSQL of the lines only they reach: `--mutate server/modules/orders/transitions.ts:57-61`,
// or a file's own tests: `MUTATION_TESTS=src/offline/pairing.test.ts … offline --mutate src/offline/pairing.ts`.
const only = process.env.MUTATION_TESTS?.split(',').filter(Boolean)

const server = (include: string[]) => ({
  test: {
    name: 'server',
    root,
    environment: 'node' as const,
    include,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
})

const projects = {
  contract: [server(['contract/**/*.test.ts'])],
  offline: [
    {
      plugins: webPlugins(),
      test: {
        name: 'web',
        root,
        environment: 'jsdom' as const,
        include: only ?? ['src/offline/**/*.test.{ts,tsx}', 'src/features/stocktakes/local-tally.test.ts'],
        setupFiles: ['tests/setup-web.ts'],
      },
    },
  ],
  rules: [
    server(
      only ?? [
        'server/modules/{transfers,orders,subscriptions,scans,notices,calendar,activity}/**/*.test.ts',
        'server/jobs/**/*.test.ts',
        'server/http/idempotency*.test.ts',
        // Issue 18's receipts and the change feed (session 33).
        'server/modules/{receipts,sync}/**/*.test.ts',
        // Issue 19 (session 33).
        'server/modules/{keychain-imports,keychain-bulk,labels,keychains}/**/*.test.ts',
        'server/modules/tags/{lost,lost-rules,retired-qr}.test.ts',
        // Issue 40 (session 46).
        'server/shared/places.test.ts',
        'server/modules/{places,stocktakes}/**/*.test.ts',
      ],
    ),
  ],
}[group]
if (!projects) throw new Error(`MUTATION_GROUP must be contract, offline or rules, not ${group}`)

export default defineConfig({ root, test: { projects } })
