// The mutation table of issue 22 from Stryker's JSON report: per file, per group, against the targets
// (≥ 90% per group, no file below 80%, no mutant without coverage). `node bench/mutation/summary.ts [report…]`;
// by default every report in reports/mutation/ (whole groups and MUTATION_TAG runs of some files), oldest first.
// A newer report of a file replaces the older one, except when its mutants are a subset of the older one's (a
// run of some lines, such as the PostgreSQL race run): then it can only improve those mutants' status.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'

type Position = { line: number; column: number }
type Mutant = {
  status: string
  mutatorName: string
  replacement?: string
  location: { start: Position; end: Position }
}
type Report = { files: Record<string, { mutants: Mutant[] }> }

const paths =
  process.argv.length > 2
    ? process.argv.slice(2)
    : existsSync('reports/mutation')
      ? readdirSync('reports/mutation')
          .filter((name) => name.endsWith('.json') && !name.endsWith('.incremental.json'))
          .map((name) => `reports/mutation/${name}`)
          .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs)
      : []

/** One mutant of one version of a file: where, which mutator, what it put there. */
const keyOf = ({ mutatorName, replacement, location: { start, end } }: Mutant) =>
  `${start.line}:${start.column}-${end.line}:${end.column} ${mutatorName} ${replacement ?? ''}`

const RANKS: Record<string, number> = { Killed: 3, Timeout: 3, Survived: 1, NoCoverage: 0 }
const rank = (mutant: Mutant) => RANKS[mutant.status] ?? 2

const merged = new Map<string, Map<string, Mutant>>()
for (const path of paths)
  for (const [file, { mutants }] of Object.entries(
    (JSON.parse(readFileSync(path, 'utf8')) as Report).files,
  )) {
    const known = merged.get(file)
    const newer = new Map(mutants.map((mutant) => [keyOf(mutant), mutant]))
    const partial = known !== undefined && [...newer.keys()].every((key) => known.has(key))
    if (!partial) merged.set(file, newer)
    // A mutant one test set kills is killed by the whole suite: a run of some lines with some tests (the race
    // tests on PostgreSQL) only ever improves on what the earlier report says.
    else for (const [key, mutant] of newer) if (rank(mutant) > rank(known.get(key)!)) known.set(key, mutant)
  }
const report: Report = {
  files: Object.fromEntries([...merged].map(([file, mutants]) => [file, { mutants: [...mutants.values()] }])),
}

const groupOf = (file: string) =>
  file.startsWith('contract/') ? 'contract' : file.startsWith('src/offline/') ? 'offline' : 'rules'

type Tally = { killed: number; timeout: number; survived: number; noCoverage: number; other: number }
const empty = (): Tally => ({ killed: 0, timeout: 0, survived: 0, noCoverage: 0, other: 0 })
const add = (into: Tally, status: string) => {
  if (status === 'Killed') into.killed++
  else if (status === 'Timeout') into.timeout++
  else if (status === 'Survived') into.survived++
  else if (status === 'NoCoverage') into.noCoverage++
  else if (status !== 'Ignored' && status !== 'CompileError') into.other++
}
const score = (t: Tally) => {
  const valid = t.killed + t.timeout + t.survived + t.noCoverage
  return valid === 0 ? 100 : (100 * (t.killed + t.timeout)) / valid
}
const row = (name: string, t: Tally) =>
  `| ${name} | ${score(t).toFixed(1)} | ${t.killed} | ${t.timeout} | ${t.survived} | ${t.noCoverage} |`

const files = Object.entries(report.files)
  .map(([path, file]) => {
    const tally = empty()
    for (const mutant of file.mutants) add(tally, mutant.status)
    return { path: path.replaceAll('\\', '/'), tally }
  })
  .sort((a, b) => a.path.localeCompare(b.path))

const groups = new Map<string, Tally>()
const failures: string[] = []
console.log('| file | score % | killed | timeout | survived | no coverage |\n|---|---|---|---|---|---|')
for (const { path, tally } of files) {
  console.log(row(path, tally))
  const group = groups.get(groupOf(path)) ?? empty()
  for (const key of Object.keys(tally) as (keyof Tally)[]) group[key] += tally[key]
  groups.set(groupOf(path), group)
  if (score(tally) < 80) failures.push(`${path} below 80% (${score(tally).toFixed(1)}%)`)
  if (tally.noCoverage > 0) failures.push(`${path}: ${tally.noCoverage} mutant(s) without coverage`)
}
console.log('\n| group | score % | killed | timeout | survived | no coverage |\n|---|---|---|---|---|---|')
for (const [name, tally] of groups) {
  console.log(row(name, tally))
  if (score(tally) < 90) failures.push(`group ${name} below 90% (${score(tally).toFixed(1)}%)`)
}
console.log(failures.length === 0 ? '\nAll targets met.' : `\nTargets not met:\n- ${failures.join('\n- ')}`)
