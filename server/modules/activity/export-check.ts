import type { KeyObject } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { type DigestFields, epochOfIso, eventDigest } from './chain-digest.ts'
import { ACTIVITY_CSV_COLUMNS, SIGNED_HEAD_ROW } from './export-columns.ts'
import { headSignedBy, parseSignedHead, type SignedHead } from './signed-head.ts'

/** What the check of an export found: `problems` empty means it holds, signed head and earlier heads included. */
export type ExportCheck = {
  entries: number
  head: SignedHead | null
  /** The earlier heads (receipts, the screen, older exports) the log still reaches. */
  headsHeld: number
  problems: string[]
}

type Record = { [column in (typeof ACTIVITY_CSV_COLUMNS)[number]]: string }

const ids = (cell: string) => (cell === '' ? [] : cell.split(' '))

function fieldsOf(record: Record, organizationId: string): DigestFields | string {
  const serverEpoch = epochOfIso(record.server_time)
  const clientEpoch = record.client_time === '' ? null : epochOfIso(record.client_time)
  if (serverEpoch === null || (record.client_time !== '' && clientEpoch === null))
    return 'a time is not one the export writes'
  if (record.from_queue !== 'yes' && record.from_queue !== 'no') return 'from_queue is neither yes nor no'
  return {
    organizationId,
    seq: Number(record.seq),
    kind: record.kind,
    actorId: record.actor_id || null,
    clientEpoch,
    serverEpoch,
    fromQueue: record.from_queue === 'yes',
    keychainIds: ids(record.keychain_ids),
    tagIds: ids(record.tag_ids),
    transferIds: ids(record.transfer_ids),
    payload: record.details,
  }
}

/**
 * Checks an activity export (`GET /activity/export`, whole log) without the database: every entry's hash is
 * recomputed from its columns and the one before, from entry 1 up to the signed head of its last row, whose
 * signature must be `publicKey`'s; and each earlier signed head given (of the same organization) must be on that
 * chain — the log was not rewritten or cut at or before it since it was published. A filtered view leaves
 * entries out, so it cannot be checked (the entries missing are named).
 */
export function checkActivityExport(
  csv: string,
  publicKey: KeyObject,
  earlierHeads: SignedHead[] = [],
): ExportCheck {
  const problems: string[] = []
  let records: Record[]
  try {
    records = parse(csv, { columns: true, bom: true }) as Record[]
  } catch (error) {
    return { entries: 0, head: null, headsHeld: 0, problems: [`not a CSV file: ${(error as Error).message}`] }
  }
  const missing = ACTIVITY_CSV_COLUMNS.filter((column) => records.length > 0 && !(column in records[0]!))
  if (records.length === 0 || missing.length > 0)
    return {
      entries: 0,
      head: null,
      headsHeld: 0,
      problems: ['not an activity export with its chain columns'],
    }

  const headRows = records.filter((record) => record.kind === SIGNED_HEAD_ROW)
  const head = headRows.length === 1 ? parseSignedHead(headRows[0]!.details) : null
  if (head === null || records.at(-1)!.kind !== SIGNED_HEAD_ROW) {
    return {
      entries: 0,
      head: null,
      headsHeld: 0,
      problems: ['the export does not end with one signed head'],
    }
  }
  if (!headSignedBy(head, publicKey)) problems.push('the signed head is not signed by this public key')

  const entries = records.filter((record) => record.kind !== SIGNED_HEAD_ROW)
  entries.sort((a, b) => Number(a.seq) - Number(b.seq))
  /** The chain hash of each entry as recomputed, by number. */
  const chain = new Map<number, string>([[0, '']])
  let previous = ''
  let expected = 1
  for (const record of entries) {
    const seq = Number(record.seq)
    if (!Number.isSafeInteger(seq) || seq < expected) {
      problems.push(`entry ${record.seq} is there twice, or is not an entry number`)
      break
    }
    if (seq > expected) {
      problems.push(
        `entries ${expected} to ${seq - 1} are not in the export (a filtered view, or rows removed): export the whole log to check it`,
      )
      break
    }
    const fields = fieldsOf(record, head.organizationId)
    if (typeof fields === 'string') {
      problems.push(`entry ${seq}: ${fields}`)
      break
    }
    previous = eventDigest(previous, fields)
    if (previous !== record.hash) {
      problems.push(`entry ${seq} does not give its hash: it, or the one before it, was changed`)
      break
    }
    chain.set(seq, previous)
    expected = seq + 1
  }
  const reached = expected - 1
  if (problems.length === 0 && reached !== head.seq) {
    problems.push(
      reached < head.seq
        ? `the export ends at entry ${reached}, before the signed head's entry ${head.seq}: rows were removed`
        : `the export goes on past the signed head's entry ${head.seq}`,
    )
  }
  if (problems.length === 0 && chain.get(head.seq) !== head.hash) {
    problems.push(`entry ${head.seq} does not have the hash the signed head states`)
  }

  let headsHeld = 0
  for (const earlier of earlierHeads) {
    const name = `the head of entry ${earlier.seq} signed at ${earlier.signedAt}`
    if (!headSignedBy(earlier, publicKey)) problems.push(`${name} is not signed by this public key`)
    else if (earlier.organizationId !== head.organizationId)
      problems.push(`${name} is another organization's`)
    else if (earlier.seq > reached)
      problems.push(`${name} is past the export's last entry (${reached}): the log was cut since`)
    else if (chain.get(earlier.seq) !== earlier.hash)
      problems.push(`${name} is no longer on the chain: the log was rewritten since, at or before that entry`)
    else headsHeld += 1
  }
  return { entries: entries.length, head, headsHeld, problems }
}
