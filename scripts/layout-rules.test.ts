// The layout rules of docs/architecture.md are enforced by biome.json: each planted violation below must fail lint,
// and the same files without the violation must pass (so a rule that fails everything does not count).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const biome = join(root, 'node_modules/.bin/biome')
const projects: string[] = []

/** Lints `files` in a scratch project that has this repository's biome.json; the diagnostics' rule names. */
function lint(files: Record<string, string>): string[] {
  const project = mkdtempSync(join(tmpdir(), 'layout-rules-'))
  projects.push(project)
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8'))
  delete config.$schema
  config.vcs = { enabled: false }
  writeFileSync(join(project, 'biome.json'), JSON.stringify(config))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(project, path)), { recursive: true })
    writeFileSync(join(project, path), text)
  }
  try {
    execFileSync(biome, ['lint', '--reporter=json', '.'], { cwd: project, encoding: 'utf8', stdio: 'pipe' })
    return []
  } catch (error) {
    const report = JSON.parse((error as { stdout: string }).stdout) as {
      diagnostics: { category: string; location: { path: string } }[]
    }
    return report.diagnostics.map((d) => `${d.location.path}: ${d.category}`)
  }
}

/**
 * Lints many independent files in as few biome runs as their paths allow (a path planted twice goes to another
 * run): one run costs about as much as the whole batch. The diagnostics of each file, by its key.
 */
function lintEach(cases: Record<string, { path: string; text: string }>): Record<string, string[]> {
  const rounds: Array<Record<string, string>> = []
  const roundOf: Record<string, number> = {}
  for (const [key, { path, text }] of Object.entries(cases)) {
    let round = rounds.findIndex((files) => !(path in files))
    if (round < 0) round = rounds.push({}) - 1
    rounds[round]![path] = text
    roundOf[key] = round
  }
  const found = rounds.map((files) => lint(files))
  return Object.fromEntries(
    Object.entries(cases).map(([key, { path }]) => [
      key,
      found[roundOf[key]!]!.filter((diagnostic) => diagnostic.startsWith(`${path}: `)),
    ]),
  )
}

afterAll(() => {
  for (const project of projects.splice(0)) rmSync(project, { recursive: true, force: true })
})

const used = (from: string) => `import { value } from '${from}'\nexport const copy = value\n`
const exported = 'export const value = 1\n'
const restricted = 'lint/style/noRestrictedImports'

/** Each layout rule: a file, an import the rule refuses there, and one it allows. */
const RULES: Array<[rule: string, file: string, forbidden: string, allowed: string]> = [
  [
    'a feature importing another feature',
    'src/features/cart/Cart.tsx',
    '../plans/api.ts',
    '../../lib/money.ts',
  ],
  ['ui/ importing a feature', 'src/ui/Button.tsx', '../features/cart/api.ts', '../lib/money.ts'],
  [
    'the data layer importing a feature',
    'src/api/cart.ts',
    '../features/cart/CartSummary.tsx',
    '../lib/api.ts',
  ],
  ['lib/ importing offline code', 'src/lib/api.ts', '../offline/outbox.ts', './money.ts'],
  ['lib/ importing the app', 'src/lib/api.ts', '../app/router.tsx', './money.ts'],
  ['contract/ importing server code', 'contract/tags.ts', '../server/config.ts', './common.ts'],
  ['contract/ importing a package other than valibot', 'contract/tags.ts', 'date-fns', 'valibot'],
  [
    'a feature importing another feature through src/',
    'src/features/cart/Cart.tsx',
    '../../features/plans/api.ts',
    '../../lib/money.ts',
  ],
  [
    'the server foundation importing a module',
    'server/db/client.ts',
    '../modules/auth/sessions.ts',
    '../config.ts',
  ],
  [
    'the server foundation importing http/',
    'server/mail/mailer.ts',
    '../http/errors.ts',
    '../i18n/translator.ts',
  ],
  ['the server foundation importing jobs/', 'server/config.ts', './jobs/queue.ts', './paths.ts'],
  [
    'deps.ts importing more of jobs/ than the runner',
    'server/deps.ts',
    './jobs/queue.ts',
    './jobs/runner.ts',
  ],
  ['http/ importing a module', 'server/http/access.ts', '../modules/auth/sessions.ts', '../db/schema.ts'],
  ['http/ importing a shared read model', 'server/http/access.ts', '../shared/person.ts', '../deps.ts'],
  ['jobs/ importing a module', 'server/jobs/runner.ts', '../modules/notices/job.ts', './queue.ts'],
  ['jobs/ importing the job registry', 'server/jobs/runner.ts', '../job-handlers.ts', '../clock.ts'],
  [
    'shared/ importing a module',
    'server/shared/person.ts',
    '../modules/members/service.ts',
    '../db/schema.ts',
  ],
  ['shared/ importing http/', 'server/shared/organization.ts', '../http/errors.ts', './person.ts'],
  ['a module importing the app', 'server/modules/tags/list.ts', '../../app.ts', '../members/service.ts'],
  [
    'a module importing the test helpers',
    'server/modules/tags/list.ts',
    '../../../tests/server/harness.ts',
    '../../shared/tag-view.ts',
  ],
  [
    'the payment providers importing another module',
    'server/modules/payments/stripe.ts',
    '../prices/prices.ts',
    '../../config.ts',
  ],
  [
    'a feature calling an endpoint itself',
    'src/features/tags/TagListScreen.tsx',
    '../../lib/call.ts',
    '../../api/tags.ts',
  ],
  [
    'a feature importing an endpoint definition',
    'src/features/tags/TagListScreen.tsx',
    '../../../contract/endpoints/tags.ts',
    '../../../contract/tags.ts',
  ],
  ['a route calling an endpoint itself', 'src/routes/app/tags.tsx', '../../lib/call.ts', '../../api/tags.ts'],
  [
    'the app importing an endpoint definition',
    'src/app/AppShell.tsx',
    '../../contract/endpoints/all.ts',
    '../api/cart-key.ts',
  ],
]

const typeOnly = (from: string) => `import type { Value } from '${from}'\nexport type Copy = Value\n`

/** Every single-file case, planted in a few shared runs. */
const PLANTED: Record<string, { path: string; text: string }> = {
  ...Object.fromEntries(
    RULES.flatMap(([rule, file, forbidden, allowed]) => [
      [`${rule}: refused`, { path: file, text: used(forbidden) }],
      [`${rule}: allowed`, { path: file, text: used(allowed) }],
    ]),
  ),
  'type-only: refused': { path: 'server/shared/person.ts', text: typeOnly('../modules/members/service.ts') },
  'type-only: allowed': { path: 'server/shared/person.ts', text: typeOnly('../db/schema.ts') },
  ...Object.fromEntries(
    ['src/api/tags.ts', 'src/offline/sync.ts'].flatMap((file) => [
      [`${file} calls`, { path: file, text: used('../lib/call.ts') }],
      [`${file} endpoints`, { path: file, text: used('../../contract/endpoints/tags.ts') }],
    ]),
  ),
  'module test helpers': {
    path: 'server/modules/tags/list.test.ts',
    text: used('../../../tests/server/harness.ts'),
  },
}

describe('the layout rules', () => {
  let found: Record<string, string[]> = {}
  beforeAll(() => {
    found = lintEach(PLANTED)
  })

  it.each(RULES)('refuse %s, and take the allowed import', (rule, file) => {
    expect(found[`${rule}: refused`]).toEqual([`${file}: ${restricted}`])
    expect(found[`${rule}: allowed`]).toEqual([])
  })

  it('refuses a type-only import as well', () => {
    expect(found['type-only: refused']).toEqual([`server/shared/person.ts: ${restricted}`])
    expect(found['type-only: allowed']).toEqual([])
  })

  it('lets the data layer and the field mode call endpoints', () => {
    for (const file of ['src/api/tags.ts', 'src/offline/sync.ts']) {
      expect(found[`${file} calls`]).toEqual([])
      expect(found[`${file} endpoints`]).toEqual([])
    }
  })

  it('a module test may use the test helpers', () => {
    expect(found['module test helpers']).toEqual([])
  })

  it('refuses a file of re-exports (a barrel)', () => {
    const barrel = lint({
      'src/lib/index.ts': "export { value } from './money.ts'\n",
      'src/lib/money.ts': exported,
    })
    expect(barrel).toContain('src/lib/index.ts: lint/performance/noBarrelFile')
  })

  it('refuses an import cycle', () => {
    const cycle = lint({
      'server/shared/a.ts': `${used('./b.ts')}${exported}`,
      'server/shared/b.ts': `import { value as first } from './a.ts'\nexport const value = first + 1\n`,
    })
    expect(cycle).toContain('server/shared/a.ts: lint/suspicious/noImportCycles')
    expect(lint({ 'server/shared/a.ts': used('./b.ts'), 'server/shared/b.ts': exported })).toEqual([])
  })

  it('refuses an import cycle of type-only imports', () => {
    const cycle = lint({
      'server/http/a.ts': "import type { B } from './b.ts'\nexport type A = { b?: B }\n",
      'server/http/b.ts': "import type { A } from './a.ts'\nexport type B = { a?: A }\n",
    })
    expect(cycle).toContain('server/http/a.ts: lint/suspicious/noImportCycles')
    expect(
      lint({
        'server/http/a.ts': "import type { B } from './b.ts'\nexport type A = { b?: B }\n",
        'server/http/b.ts': 'export type B = { a?: string }\n',
      }),
    ).toEqual([])
  })
})
