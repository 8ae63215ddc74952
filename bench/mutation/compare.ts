// Before/after mutation table: `node bench/mutation/compare.ts <before.json…> -- <after.json…>` (Stryker JSON
// reports; several reports on one side are merged, later ones winning for a file they both hold).
import { readFileSync } from 'node:fs'

type Report = { files: Record<string, { mutants: { status: string }[] }> }
const args = process.argv.slice(2)
const split = args.indexOf('--')
const merge = (paths: string[]) => {
  const files: Report['files'] = {}
  for (const path of paths) Object.assign(files, (JSON.parse(readFileSync(path, 'utf8')) as Report).files)
  return files
}
const before = merge(args.slice(0, split))
const after = merge(args.slice(split + 1))

const tally = (mutants: { status: string }[] = []) => {
  const count = (status: string) => mutants.filter((mutant) => mutant.status === status).length
  const detected = count('Killed') + count('Timeout')
  const valid = detected + count('Survived') + count('NoCoverage')
  return {
    score: valid === 0 ? 100 : (100 * detected) / valid,
    detected,
    valid,
    noCoverage: count('NoCoverage'),
  }
}
const groupOf = (file: string) =>
  file.startsWith('contract/') ? 'contract' : file.startsWith('src/offline/') ? 'offline' : 'rules'

console.log(
  '| file | before % | after % | after: detected / valid | after: no coverage |\n|---|---|---|---|---|',
)
const groups = new Map<string, { before: { status: string }[]; after: { status: string }[] }>()
for (const file of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
  const b = tally(before[file]?.mutants)
  const a = tally(after[file]?.mutants)
  console.log(
    `| ${file} | ${b.score.toFixed(1)} | ${a.score.toFixed(1)} | ${a.detected} / ${a.valid} | ${a.noCoverage} |`,
  )
  const group = groups.get(groupOf(file)) ?? { before: [], after: [] }
  group.before.push(...(before[file]?.mutants ?? []))
  group.after.push(...(after[file]?.mutants ?? []))
  groups.set(groupOf(file), group)
}
console.log(
  '\n| group | before % | after % | after: detected / valid | after: no coverage |\n|---|---|---|---|---|',
)
for (const [name, group] of groups) {
  const b = tally(group.before)
  const a = tally(group.after)
  console.log(
    `| ${name} | ${b.score.toFixed(1)} | ${a.score.toFixed(1)} | ${a.detected} / ${a.valid} | ${a.noCoverage} |`,
  )
}
