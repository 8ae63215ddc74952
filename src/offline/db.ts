import Dexie, { type EntityTable } from 'dexie'
import type { Profile } from '../../contract/auth.ts'
import type { Key, Keychain, KeychainSummary } from '../../contract/keychains.ts'
import type { HookScanResult } from '../../contract/places.ts'
import type { Acceptance } from '../../contract/receipts.ts'
import type { ScanResult } from '../../contract/scans.ts'
import type { StocktakeScanResult } from '../../contract/stocktakes.ts'
import type { Tag } from '../../contract/tags.ts'
import type { Transfer } from '../../contract/transfers.ts'

/** A keychain of the mirror: its list row, and its full detail once it has been opened online. */
export type MirroredKeychain = {
  id: string
  organizationId: string
  summary: KeychainSummary | null
  detail: Keychain | null
  /** The full sync that last wrote it (see `sync.ts`): what a new full sync did not write again goes. */
  gen?: string
  /** Made on this device by a queued pairing (its id is the outbox item's): waiting for the server. */
  waiting?: true
}

export type MirroredTag = Tag & { organizationId: string; gen?: string }

/** Tags of consecutive codes of one organization, packed (see `tag-store.ts`). */
export type TagBucket = {
  /** `<organizationId>|<alpha code>|<number / 64>` */
  id: string
  organizationId: string
  /** What every tag URL of the bucket starts with (the public id follows). */
  urlBase: string
  /** The tags' public ids, in the order of `tags` (a multi-entry index). */
  publicIds: string[]
  tags: unknown[][]
}

/** A transfer of the selected organization's list (`organization`), addressed to me (`mine`), or both. */
export type MirroredTransfer = Transfer & {
  recipientId: string
  keychainId: string
  mine: 0 | 1
  gen?: string
}

/**
 * `pairCreate`: a new keychain with a scanned free tag as its first key; `pairAttach`: that tag on a keychain;
 * `hookScan`: the hook a returned keychain was put on; `stocktakeScan`: a label or tag scanned in a stocktake.
 */
export type OutboxKind =
  | 'scan'
  | 'pickup'
  | 'extension'
  | 'pairCreate'
  | 'pairAttach'
  | 'hookScan'
  | 'stocktakeScan'

type OutboxStatus = 'pending' | 'failed' | 'sent'

/**
 * A field action kept until the server has it. `id` is the client UUID sent as `Idempotency-Key`, reused on
 * every attempt; `clientTime` is when the person did it, sent as `X-Client-Time`.
 */
export type OutboxItem = {
  id: string
  /** Order of the actions on this device: they reach the server in this order. */
  seq: number
  kind: OutboxKind
  userId: string
  organizationId: string
  /** Scan: the scanned value; pickup and extension: the transfer; pairing: the tag's id. */
  value: string
  /** Pairing: the new keychain's name (`pairCreate`) and the key's name. */
  name?: string
  keyName?: string
  /** `pairAttach`: the keychain the tag goes on; `hookScan`: the keychain put on the hook. */
  keychainId?: string
  /** `hookScan`: make that hook the keychain's home (a manager's one tap). */
  makeHome?: boolean
  /** `stocktakeScan`: the stocktake, the hook the device scanned last, and this device's count of its scans. */
  stocktakeId?: string
  hookId?: string | null
  deviceId?: string
  deviceSeq?: number
  /** Pairing: the tag's public id (how the mirror finds it). */
  tagPublicId?: string
  /** Extension: the to-date asked for. */
  toDate?: string
  /** First pickup: the recipient's acceptance (typed name or signature, photo), sent with it. */
  acceptance?: Acceptance
  /** What the person saw when they did it (keychain name, tag code…), for the sync panel. */
  label: string
  clientTime: string
  status: OutboxStatus
  attempts: number
  /** Not before this instant (ms since epoch): backoff after a failed attempt. */
  nextAttemptAt: number
  /** The server's refusal, in the reader's language when it sent one. */
  error: { status: number; code: string; message: string } | null
  /** The server's answer once sent (a scan's resolution, a pickup's transfer). */
  result: ScanResult | Transfer | Keychain | Key | HookScanResult | StocktakeScanResult | null
  sentAt: string | null
}

export type MetaEntry = { key: string; value: string }

/**
 * The browser's own database (IndexedDB through Dexie): a mirror of what field screens need for the selected
 * organization and the signed-in user, and the outbox of field actions. Each schema change is a new
 * `version(n)` with its `upgrade()`; Dexie runs the steps between the stored version and this one in order.
 */
export class TrousseauDb extends Dexie {
  keychains!: EntityTable<MirroredKeychain, 'id'>
  tagBuckets!: EntityTable<TagBucket, 'id'>
  transfers!: EntityTable<MirroredTransfer, 'id'>
  profile!: EntityTable<Profile, 'id'>
  meta!: EntityTable<MetaEntry, 'key'>
  outbox!: EntityTable<OutboxItem, 'id'>

  constructor(name = 'trousseau') {
    super(name)
    this.version(1).stores({
      keychains: 'id, organizationId',
      tags: 'id, organizationId, publicId, [organizationId+codeKey]',
      transfers: 'id, organizationId, keychainId, recipientId, mine',
      profile: 'id',
      meta: 'key',
      outbox: 'id, seq, status, [status+seq]',
    })
    // The change feed (no ceiling on the organization's size): tags in buckets (`tag-store.ts`), keychains
    // without an index on their organization (the list filters them). The mirror refills from a full sync (no
    // cursor yet), so nothing is carried over from version 1 but the outbox, profile and meta.
    this.version(2).stores({
      tags: null,
      tagBuckets: 'id, *publicIds',
      keychains: 'id',
    })
  }
}

let instance: TrousseauDb | null = null

export function offlineDb(): TrousseauDb {
  instance ??= new TrousseauDb()
  return instance
}

/** Tests start from an empty database. */
export async function resetOfflineDbForTests(): Promise<void> {
  if (instance) {
    instance.close()
    await instance.delete()
  }
  instance = null
}

/**
 * Runs `work` on the database; when the connection was lost under it (Safari's "Connection to Indexed
 * Database server lost", Dexie's `DatabaseClosedError`), reopens it and tries once more.
 */
export async function withDb<T>(work: (db: TrousseauDb) => Promise<T>): Promise<T> {
  const db = offlineDb()
  try {
    return await work(db)
  } catch (error) {
    if (!isConnectionLost(error)) throw error
    if (db.isOpen()) db.close()
    await db.open()
    return work(db)
  }
}

function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return (
    error.name === 'DatabaseClosedError' ||
    (error.name === 'UnknownError' && /Connection to Indexed Database server lost/i.test(error.message)) ||
    /Connection to Indexed Database server lost/i.test(error.message)
  )
}
