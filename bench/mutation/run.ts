// `npm run test:mutation [-- <group…>] [-- <stryker options>]`: StrykerJS (stryker.config.mjs) over each group
// of issue 22 (contract, offline, rules; all three by default), then the per-file table of every group.
// The in-process API tests run on PGlite here, as in `npm run test:unit`: TEST_DATABASE_URL is removed. With
// MUTATION_DATABASE_URL set, the rules group runs them on that PostgreSQL instead (a database per test file), so
// the race tests, which only compete there, count: `MUTATION_DATABASE_URL=postgres://… npm run test:mutation -- rules`.
import { spawnSync } from 'node:child_process'

const all = ['contract', 'offline', 'rules']
const args = process.argv.slice(2)
const chosen = args.filter((arg) => all.includes(arg))
const options = args.filter((arg) => !all.includes(arg))
const env: NodeJS.ProcessEnv = { ...process.env }
delete env.TEST_DATABASE_URL
for (const group of chosen.length > 0 ? chosen : all) {
  const stryker = spawnSync('stryker', ['run', ...options], {
    stdio: 'inherit',
    env: {
      ...env,
      MUTATION_GROUP: group,
      ...(group === 'rules' && process.env.MUTATION_DATABASE_URL
        ? { TEST_DATABASE_URL: process.env.MUTATION_DATABASE_URL }
        : {}),
    },
  })
  if (stryker.status !== 0) process.exit(stryker.status ?? 1)
}
const summary = spawnSync(process.execPath, ['bench/mutation/summary.ts'], { stdio: 'inherit' })
process.exit(summary.status ?? 1)
