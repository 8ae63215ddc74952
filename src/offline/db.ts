import Dexie, { type EntityTable, type Table } from 'dexie'
import type { Profile } from '../../contract/auth.ts'
import type { Handover } from '../../contract/handover.ts'
import type { HandoverRefusal } from '../../contract/handover-check.ts'
import type { HandoverOffer } from '../../contract/handover-codes.ts'
import type { Key, Keychain, KeychainSummary } from '../../contract/keychains.ts'
import type { Person } from '../../contract/person.ts'
import type { HookScanResult } from '../../contract/places.ts'
import type { Acceptance } from '../../contract/receipts.ts'
import type { ScanResult } from '../../contract/scans.ts'
import type { StocktakeScanResult } from '../../contract/stocktakes.ts'
import type { MirroredDeviceKey } from '../../contract/sync.ts'
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

/** A device key of the selected organization's members, as the last sync page carried it. */
export type MirroredDeviceKeyRow = MirroredDeviceKey & { organizationId: string }

/**
 * This device's signing key for one user (`device-key.ts`): the private key is a non-extractable `CryptoKey`,
 * stored as it is; null once the organization's feed showed the key revoked (a new one is then made).
 */
export type DeviceKeyRow = {
  userId: string
  deviceId: string
  publicKey: string
  fingerprint: string
  privateKey: CryptoKey | null
  createdAt: string
  /** Set by the server's answer to `POST /devices`. */
  registeredAt: string | null
  expiresAt: string | null
  /** The key this one replaced was revoked. */
  replacesRevoked?: true
}

/** The handover a giver's phone offered and waits to see accepted (`handover.ts`). */
export type PendingOfferRow = {
  offerId: string
  userId: string
  organizationId: string
  offerCode: string
  offer: HandoverOffer
  keychain: { id: string; name: string }
  giver: Person
  receiver: Person
  madeAt: string
}

/** What a mirrored keychain showed before a handover changed it on this device: put back if it is refused. */
export type CustodyBefore = {
  custodian: Person | null
  status?: Keychain['status']
  whereabouts?: KeychainSummary['whereabouts']
}

/** A handover this device took part in (`LocalHandover` of `handover.ts`), kept per user. */
export type HandoverRow = {
  userId: string
  offerId: string
  role: 'giver' | 'receiver'
  organizationId: string
  keychain: { id: string; name: string }
  giver: Person
  receiver: Person
  offerCode: string
  acceptanceCode: string
  offeredAt: string
  acceptedAt: string
  state: 'queued' | 'APPLIED' | 'REFUSED'
  reason: HandoverRefusal | null
  /** The outbox item that sends it. */
  itemId: string
  before: CustodyBefore | null
}

/**
 * `pairCreate`: a new keychain with a scanned free tag as its first key; `pairAttach`: that tag on a keychain;
 * `hookScan`: the hook a returned keychain was put on; `stocktakeScan`: a label or tag scanned in a stocktake;
 * `handover`: an offer and its acceptance signed by two phones.
 */
export type OutboxKind =
  | 'scan'
  | 'pickup'
  | 'extension'
  | 'pairCreate'
  | 'pairAttach'
  | 'hookScan'
  | 'stocktakeScan'
  | 'handover'

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
  /** `pairAttach`: the keychain the tag goes on; `hookScan`: the keychain put on the hook; `handover`: handed over. */
  keychainId?: string
  /** `hookScan`: make that hook the keychain's home (a manager's one tap). */
  makeHome?: boolean
  /** `stocktakeScan`: the stocktake, the hook the device scanned last, and this device's count of its scans. */
  stocktakeId?: string
  hookId?: string | null
  deviceId?: string
  deviceSeq?: number
  /** `handover`: the two signed codes (its `value` is the offer's id). */
  handover?: { offer: string; acceptance: string }
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
  result: ScanResult | Transfer | Keychain | Key | HookScanResult | StocktakeScanResult | Handover | null
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
  deviceKeys!: EntityTable<MirroredDeviceKeyRow, 'id'>
  deviceKeyPairs!: EntityTable<DeviceKeyRow, 'userId'>
  pendingOffers!: EntityTable<PendingOfferRow, 'offerId'>
  handovers!: Table<HandoverRow, [string, string]>

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
    // Handovers from phone to phone (issue 41): new tables only, everything kept.
    this.version(3).stores({
      deviceKeys: 'id',
      deviceKeyPairs: 'userId',
      pendingOffers: 'offerId, userId',
      handovers: '[userId+offerId], offerId, userId',
    })
  }
}

let instance: TrousseauDb | null = null

export function offlineDb(): TrousseauDb {
  instance ??= new TrousseauDb()
  return instance
}

/** Tests that play two phones give each its own database and switch between them. */
export function switchOfflineDbForTests(name: string): void {
  if (instance?.name === name) return
  instance?.close()
  instance = new TrousseauDb(name)
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
