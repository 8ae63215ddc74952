// The layout rules of docs/architecture.md are enforced by biome.json: each planted violation below must fail lint,
// and the same files without the violation must pass (so a rule that fails everything does not count).
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const biome = join(root, 'node_modules/.bin/biome')
let project: string | undefined

/** Lints `files` in a scratch project that has this repository's biome.json; the diagnostics' rule names. */
function lint(files: Record<string, string>): string[] {
  project = mkdtempSync(join(tmpdir(), 'layout-rules-'))
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

afterEach(() => {
  if (project) rmSync(project, { recursive: true, force: true })
  project = undefined
})

const used = (from: string) => `import { value } from '${from}'\nexport const copy = value\n`
const exported = 'export const value = 1\n'
const restricted = 'lint/style/noRestrictedImports'

describe('the layout rules', () => {
  it.each([
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
    ['http/ importing a module', 'server/http/access.ts', '../modules/auth/sessions.ts', '../db/schema.ts'],
    [
      'payments/ importing a module',
      'server/payments/stripe.ts',
      '../modules/prices/prices.ts',
      '../config.ts',
    ],
  ])('refuse %s, and take the allowed import', (_, file, forbidden, allowed) => {
    expect(lint({ [file]: used(forbidden) })).toEqual([`${file}: ${restricted}`])
    expect(lint({ [file]: used(allowed) })).toEqual([])
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
      'server/payments/a.ts': `${used('./b.ts')}${exported}`,
      'server/payments/b.ts': `import { value as first } from './a.ts'\nexport const value = first + 1\n`,
    })
    expect(cycle).toContain('server/payments/a.ts: lint/suspicious/noImportCycles')
    expect(lint({ 'server/payments/a.ts': used('./b.ts'), 'server/payments/b.ts': exported })).toEqual([])
  })
})
