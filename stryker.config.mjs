// StrykerJS over the rules (issue 22): `npm run test:mutation` runs the three groups one after the other
// (bench/mutation/run.ts), each against its own tests (bench/mutation/vitest.config.ts), then prints the table.
// Not part of `npm test`. One group: `npm run test:mutation -- offline`; fewer files: add
// `--mutate src/offline/outbox.ts`. Results are incremental (reports/mutation/<group>.incremental.json,
// gitignored): a second run only re-tests mutants whose code or tests changed.
// The table alone: `node bench/mutation/summary.ts` (reads reports/mutation/<group>.json).

/** The three groups of issue 22; bench/mutation/summary.ts groups the report the same way. */
export const groups = {
  contract: ['contract/**/*.ts', '!contract/**/*.test.ts'],
  // With the tally a phone counts its unsent stocktake scans by (issue 40).
  offline: ['src/offline/**/*.ts', '!src/offline/**/*.test.ts', 'src/features/stocktakes/local-tally.ts'],
  rules: [
    'server/modules/transfers/pickups.ts',
    'server/shared/transfer-conditions.ts',
    'server/modules/transfers/service.ts',
    'server/modules/transfers/reminders.ts',
    'server/modules/transfers/extensions.ts',
    'server/modules/transfers/chase.ts',
    'server/modules/orders/transitions.ts',
    'server/shared/time-zones.ts',
    'server/modules/subscriptions/service.ts',
    'server/modules/scans/service.ts',
    'server/http/idempotency.ts',
    // Issue 17's job queue, notices and calendar feeds, and issue 18's activity log.
    'server/jobs/*.ts',
    '!server/jobs/*.test.ts',
    'server/modules/notices/notices.ts',
    'server/modules/calendar/*.ts',
    '!server/modules/calendar/*.test.ts',
    'server/modules/activity/*.ts',
    '!server/modules/activity/*.test.ts',
    // Issue 19's import, bulk actions, label sheets, lost tags and keychain lookup (session 33).
    'server/modules/keychain-imports/*.ts',
    '!server/modules/keychain-imports/*.test.ts',
    'server/modules/keychain-bulk/*.ts',
    '!server/modules/keychain-bulk/*.test.ts',
    'server/modules/labels/*.ts',
    '!server/modules/labels/*.test.ts',
    'server/modules/tags/lost.ts',
    'server/modules/keychains/find.ts',
    // Their route files are OpenAPI text around one call each (the calls' rules are the services', tested above).
    '!server/modules/keychain-imports/routes.ts',
    '!server/modules/keychain-bulk/routes.ts',
    '!server/modules/labels/routes.ts',
    // Issue 18's handover receipts and the field mirror's change feed (session 33).
    'server/modules/receipts/{mail,pdf,photo,service}.ts',
    'server/modules/sync/feed.ts',
    // Two route files whose mutants are mostly OpenAPI summaries and descriptions, documentation rather than
    // rules; their access rules are the permission table's (contract group) and their tests' 403s (session 31).
    '!server/modules/calendar/routes.ts',
    '!server/modules/activity/routes.ts',
    // Issue 40's places, where a keychain is, and stocktakes (session 46).
    'server/shared/places.ts',
    'server/modules/places/{tree,service,location}.ts',
    'server/modules/stocktakes/{start,scan,close,due,view}.ts',
    // Issue 42's push notifications: subscriptions, channels, the push job, the badge, the digest, who is told.
    'server/modules/push/{settings,subscriptions,send,badge,vapid}.ts',
    'server/modules/notices/{deliver,digest}.ts',
    'server/modules/handovers/notices.ts',
    // Issue 43: SCIM provisioning, the organization's own sign-in, the leaver alert.
    'server/modules/scim/{filter,patch,users}.ts',
    'server/modules/identity/{sign-in,settings}.ts',
    'server/modules/members/leavers.ts',
  ],
}

const group = process.env.MUTATION_GROUP ?? 'contract'
if (!(group in groups)) throw new Error(`MUTATION_GROUP must be one of ${Object.keys(groups).join(', ')}`)
// MUTATION_TAG names a run of some files apart (its own sandbox and reports), so two runs of one group can go
// side by side: `MUTATION_TAG=mirror npm run test:mutation -- offline --mutate src/offline/mirror.ts`.
const name = process.env.MUTATION_TAG ? `${group}-${process.env.MUTATION_TAG}` : group

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'bench/mutation/vitest.config.ts', related: false },
  // No TypeScript checker: typescript@7 has no JavaScript API, and vitest (type stripping) is the judge. A mutant
  // that would not type-check is then reported killed or survived by the tests alone.
  checkers: [],
  // Stryker's sandbox rewrites `tsconfigFile` through `import('typescript')`, which typescript@7 cannot serve.
  // Our tsconfig has no `extends` or `references` to rewrite, so point it at a file that does not exist.
  tsconfigFile: 'tsconfig.stryker-none.json',
  mutate: groups[group],
  // The rule tables (ORDER_TRANSITIONS, role permissions) are built when a module loads: measure those
  // "static" mutants too (each costs a full reload of the test files that import it).
  ignoreStatic: false,
  coverageAnalysis: 'perTest',
  concurrency: 2,
  timeoutMS: 30_000,
  timeoutFactor: 2,
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  clearTextReporter: { allowColor: false, allowEmojis: false, reportScoreTable: true, reportMutants: false },
  tempDirName: `.stryker-tmp/${name}`,
  cleanTempDir: 'always',
  // Anchored at the root: a bare 'reports' would also leave out server/modules/reports and src/features/reports.
  ignorePatterns: [
    '/.stryker-tmp',
    '/dist',
    '/dist-server',
    '/test-results',
    '/reports',
    '/data',
    '/coverage',
  ],
  thresholds: { high: 90, low: 80, break: null },
}
