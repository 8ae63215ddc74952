import { existsSync, globSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * Written in a test file that reaches the database but whose outcome does not depend on which one: it runs no two
 * connections at once, and PGlite is PostgreSQL's own engine, so the second run would repeat the first.
 */
const PGLITE_ONLY = '@database-agnostic'

/**
 * The test files matched by `patterns` whose outcome can depend on the database they run on: those that reach,
 * through their relative imports, a file that reads `TEST_DATABASE_URL` (tests/server/database.ts, which every
 * app and database of the server tests comes from, or a test that asks it itself). The others (schemas, PDF
 * drawing, config parsing, build scripts…) run the same code with or without it, so the PostgreSQL run of the
 * server suite leaves them to the PGlite one instead of running them a second time; so does a file marked
 * `@database-agnostic`.
 */
export function databaseDependentTests(root: string, patterns: readonly string[]): string[] {
  // Per file: whether it names the variable itself, and the files it imports.
  const parsed = new Map<string, { names: boolean; imports: string[]; pgliteOnly: boolean }>()
  function parse(file: string) {
    let entry = parsed.get(file)
    if (!entry) {
      const text = readFileSync(file, 'utf8')
      // Static and dynamic imports and re-exports of a relative path (`from './x.ts'`, `import('./x.ts')`).
      const imports = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
        .map((match) => resolve(dirname(file), match[1]!))
        .filter((target) => /\.tsx?$/.test(target) && existsSync(target))
      entry = { names: text.includes('TEST_DATABASE_URL'), imports, pgliteOnly: text.includes(PGLITE_ONLY) }
      parsed.set(file, entry)
    }
    return entry
  }

  function reaches(test: string): boolean {
    const seen = new Set([test])
    const pending = [test]
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
      const { names, imports } = parse(file)
      if (names) return true
      for (const target of imports) {
        if (!seen.has(target)) {
          seen.add(target)
          pending.push(target)
        }
      }
    }
    return false
  }

  return patterns
    .flatMap((pattern) => globSync(pattern, { cwd: root, exclude: ['node_modules/**'] }))
    .filter((file) => !parse(join(root, file)).pgliteOnly && reaches(join(root, file)))
    .map((file) => relative(root, join(root, file)))
    .sort()
}
