// `npm run verify-handover -- RECEIPT.json --keys KEYS.json`: checks a handover receipt (`GET /api/handovers/{id}/
// receipt.json`) with no database and no network, against the organization's published device keys
// (`GET /api/handovers/keys`, saved as a file): the receipt is exactly as issued, the server signed it, and the
// offer and its acceptance were signed by devices of the two people they name, valid when the offer was made.
// Exits 0 when it holds ("valid"), 1 with the reason when it does not, 2 on bad usage.
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { checkReceipt } from '../contract/handover-receipt.ts'

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: npm run verify-handover -- RECEIPT.json --keys KEYS.json\n`)
  process.exit(2)
}

const { values, positionals } = parseArgs({ options: { keys: { type: 'string' } }, allowPositionals: true })
const [file] = positionals
if (!file || positionals.length > 1) usage('one receipt file, please')
if (!values.keys)
  usage('--keys is needed: the organization’s published device keys (GET /api/handovers/keys)')

function read(path: string): Buffer {
  try {
    return readFileSync(path)
  } catch {
    return usage(`cannot read ${path}`)
  }
}

const check = await checkReceipt(read(file), read(values.keys).toString('utf8'))
if (!check.valid) {
  process.stdout.write(`NOT VALID: ${check.problem}\n`)
  process.exit(1)
}
const { record, handoverId } = check.receipt
process.stdout.write(
  `Valid: ${record.giverName} handed "${record.keychainName}" to ${record.receiverName}, offered ${check.offeredAt}, applied ${record.appliedAt} (event ${record.eventSeq}, handover ${handoverId}).\n`,
)
