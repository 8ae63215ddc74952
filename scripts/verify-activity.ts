// `npm run verify:activity -- EXPORT.csv --public-key KEY [--head HEAD]...`: checks an activity export
// (`GET /api/activity/export` without filters) with no database: every entry's hash recomputed from its columns,
// from entry 1 to the signed head on its last row, that head's signature, and each earlier signed head given
// (printed on a receipt, shown on the activity screen, the last row of an older export) still on the chain.
// KEY: the server's public key (`GET /api/activity/public-key`): its base64url `publicKey`, or a file holding it,
// its PEM, or that answer's JSON. HEAD: a signed head's line (`trousseau-ledger-head/1 … signature=…`), or a
// file of such lines. Exits 0 when everything holds, 1 otherwise (each problem on a line), 2 on bad usage.
import { existsSync, readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { checkActivityExport } from '../server/modules/activity/export-check.ts'
import { parseSignedHead, publicKeyFrom, type SignedHead } from '../server/modules/activity/signed-head.ts'

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: npm run verify:activity -- EXPORT.csv --public-key KEY [--head HEAD]...\n`,
  )
  process.exit(2)
}

const { values, positionals } = parseArgs({
  options: {
    'public-key': { type: 'string' },
    head: { type: 'string', multiple: true, default: [] },
  },
  allowPositionals: true,
})
const [file] = positionals
if (!file || positionals.length > 1) usage('one export file, please')
if (!values['public-key'])
  usage('--public-key is needed: a signature proves nothing without the key to check it')

/** A value given inline, or the content of the file it names. */
const given = (value: string) => (existsSync(value) ? readFileSync(value, 'utf8') : value)

function publicKey(value: string) {
  const text = given(value).trim()
  try {
    return publicKeyFrom(text.startsWith('{') ? (JSON.parse(text) as { publicKey: string }).publicKey : text)
  } catch {
    return usage(`--public-key: not an Ed25519 public key (${(text.split('\n')[0] ?? '').slice(0, 40)}…)`)
  }
}

const heads: SignedHead[] = values.head.flatMap((value) =>
  given(value)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => parseSignedHead(line) ?? usage(`--head: not a signed head: ${line.slice(0, 60)}…`)),
)
const csv = (() => {
  try {
    return readFileSync(file, 'utf8')
  } catch {
    return usage(`cannot read ${file}`)
  }
})()

const check = checkActivityExport(csv, publicKey(values['public-key']), heads)
if (check.head) {
  process.stdout.write(
    `${check.entries} entries; signed head: entry ${check.head.seq}, hash ${check.head.hash || '(none)'}, signed at ${check.head.signedAt} by key ${check.head.keyId}\n`,
  )
}
if (check.problems.length > 0) {
  for (const problem of check.problems) process.stdout.write(`NOT VERIFIED: ${problem}\n`)
  process.exit(1)
}
process.stdout.write(
  `Verified: the chain holds from entry 1 to the signed head${heads.length > 0 ? `, and reaches the ${check.headsHeld} earlier head(s) given` : ''}.\n`,
)
