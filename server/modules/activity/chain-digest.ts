import { createHash } from 'node:crypto'

/** An entry's fields as `organization_event_digest` (migration 0012) writes them into its hash. */
export type DigestFields = {
  organizationId: string
  seq: number
  kind: string
  actorId: string | null
  /** An instant as `extract(epoch from …)::text` writes it: seconds, a dot, six digits. */
  clientEpoch: string | null
  serverEpoch: string
  fromQueue: boolean
  keychainIds: string[]
  tagIds: string[]
  transferIds: string[]
  /** The payload as `jsonb::text` writes it (the export's `details`). */
  payload: string
}

/**
 * The chain hash of an entry after `previous` ('' for the first), as the database computes it: a check of an
 * export needs no database.
 */
export function eventDigest(previous: string, fields: DigestFields): string {
  const ids = (list: string[]) => `{${list.join(',')}}`
  const text = [
    previous,
    fields.organizationId,
    String(fields.seq),
    fields.kind,
    fields.actorId ?? '',
    fields.clientEpoch ?? '',
    fields.serverEpoch,
    String(fields.fromQueue),
    ids(fields.keychainIds),
    ids(fields.tagIds),
    ids(fields.transferIds),
    fields.payload,
  ].join('|')
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

const MICROS = 1_000_000n

/**
 * An instant of the database (its epoch text) as the export writes it: `toISOString()`'s form, with six digits
 * of fraction when the instant has microseconds (the chain covers them; a `Date` would drop them).
 */
export function isoOfEpoch(epoch: string): string {
  const match = /^(-?)(\d+)\.(\d{6})$/.exec(epoch)
  if (!match) throw new Error(`not an epoch: ${epoch}`)
  const [, sign, seconds, fraction] = match as unknown as [string, string, string, string]
  const micros = (BigInt(seconds) * MICROS + BigInt(fraction)) * (sign ? -1n : 1n)
  const millis = micros >= 0n ? micros / 1000n : -((-micros + 999n) / 1000n)
  const iso = new Date(Number(millis)).toISOString()
  const extra = micros - millis * 1000n
  return extra === 0n ? iso : `${iso.slice(0, -1)}${String(extra).padStart(3, '0')}Z`
}

/** The epoch text of an instant the export wrote (`isoOfEpoch`'s inverse), or null if it is not one. */
export function epochOfIso(iso: string): string | null {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})\.(\d{3})(\d{3})?Z$/.exec(iso)
  if (!match) return null
  const [, whole, millis, micros] = match as unknown as [string, string, string, string | undefined]
  const seconds = Date.parse(`${whole}Z`)
  if (Number.isNaN(seconds)) return null
  const total = BigInt(seconds) * 1000n + BigInt(`${millis}${micros ?? '000'}`)
  const magnitude = total < 0n ? -total : total
  return `${total < 0n ? '-' : ''}${magnitude / MICROS}.${String(magnitude % MICROS).padStart(6, '0')}`
}
