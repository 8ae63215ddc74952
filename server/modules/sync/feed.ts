import { and, asc, eq, gt } from 'drizzle-orm'
import { type EventKind, LOG_ONLY_KINDS } from '../../../contract/events.ts'
import type { Permission, Role } from '../../../contract/permissions.ts'
import { SYNC_PAGE_DEFAULT, SYNC_RETENTION_MS, type SyncPage } from '../../../contract/sync.ts'
import type { Db } from '../../db/client.ts'
import { organizationEventCounters, organizationEvents } from '../../db/schema.ts'
import { mirroredDeviceKeys } from '../devices/service.ts'
import {
  type CursorInput,
  decodeSyncCursor,
  encodeSyncCursor,
  SNAPSHOT_ENTITIES,
  type SnapshotEntity,
  type SyncCursor,
} from './cursor.ts'
import {
  keychainPage,
  keychainsByIds,
  snapshotTotals,
  type TransferReader,
  tagPage,
  tagsByIds,
  transferPage,
  transfersByIds,
} from './rows.ts'

export type FeedCaller = {
  userId: string
  organizationId: string
  role: Role
  permissions: readonly Permission[]
}

type FeedContext = { db: Db; now: Date; publicUrl: string; caller: FeedCaller; limit: number }
/** A page but its device keys, which every page carries alike. */
type FeedPage = Omit<SyncPage, 'deviceKeys'>

const emptyPage = (caller: FeedCaller) => ({
  organizationId: caller.organizationId,
  keychains: [],
  tags: [],
  transfers: [],
  deleted: { keychains: [] },
})

/** The entities of the snapshot the caller's role reads, in order. */
function entitiesFor(caller: FeedCaller): SnapshotEntity[] {
  return SNAPSHOT_ENTITIES.filter(
    (entity) =>
      entity === 'transfers' ||
      (entity === 'tags' && caller.permissions.includes('read__tag')) ||
      (entity === 'keychains' && caller.permissions.includes('read__keychain')),
  )
}

/** A CONTACT sees the transfers addressed to them; a role that reads the organization's transfers, all. */
const readerOf = (caller: FeedCaller): TransferReader => ({
  userId: caller.userId,
  onlyOwn: caller.role === 'CONTACT',
})

/**
 * `GET /sync/changes`: one page of the field mirror's change feed. Without a cursor, or with one that no longer
 * holds (another organization, user or role, older than the retention, an older format), the answer is the first
 * page of a snapshot of the organization with `reset: true`; a snapshot's cursor goes on with the next page,
 * then with the events since the snapshot began; an events cursor reads the events after it. Every page carries
 * the device keys of the organization's members whole (a few per person): a phone checks a colleague's
 * signature offline with them, and learns that its own key was revoked.
 */
export async function readFeed(
  db: Db,
  input: { caller: FeedCaller; cursor: string | undefined; limit?: number; now: Date; publicUrl: string },
): Promise<SyncPage> {
  const context: FeedContext = { db, ...input, limit: input.limit ?? SYNC_PAGE_DEFAULT }
  const page = await readPage(context, input.cursor)
  return { ...page, deviceKeys: await mirroredDeviceKeys(db, input.caller.organizationId, input.now) }
}

function readPage(context: FeedContext, text: string | undefined): Promise<FeedPage> {
  const cursor = text === undefined ? null : decodeSyncCursor(text)
  if (!cursor || !holds(cursor, context)) return startSnapshot(context)
  if (cursor.p) return snapshotPage(context, cursor, false)
  return changesPage(context, cursor)
}

function holds(cursor: SyncCursor, { caller, now }: FeedContext): boolean {
  return (
    cursor.o === caller.organizationId &&
    cursor.u === caller.userId &&
    cursor.r === caller.role &&
    now.getTime() - cursor.t <= SYNC_RETENTION_MS
  )
}

async function startSnapshot(context: FeedContext): Promise<FeedPage> {
  const { db, caller } = context
  // Read before any row: what changes while the snapshot is read is in the events after this number.
  const [counter] = await db
    .select({ lastSeq: organizationEventCounters.lastSeq })
    .from(organizationEventCounters)
    .where(eq(organizationEventCounters.organizationId, caller.organizationId))
  const entities = entitiesFor(caller)
  const totals = await snapshotTotals(db, caller.organizationId, readerOf(caller))
  const total = entities.reduce((sum, entity) => sum + totals[entity], 0)
  const cursor = issue(context, {
    s: counter?.lastSeq ?? 0,
    p: { e: entities[0] ?? 'transfers', a: null, d: 0, n: total },
  })
  return snapshotPage(context, cursor, true)
}

function issue(context: FeedContext, at: Pick<CursorInput, 's' | 'p'>): SyncCursor {
  const { caller, now } = context
  return { v: 1, o: caller.organizationId, u: caller.userId, r: caller.role, t: now.getTime(), ...at }
}

async function snapshotPage(context: FeedContext, cursor: SyncCursor, reset: boolean): Promise<FeedPage> {
  const { db, caller, limit, now, publicUrl } = context
  const progress = cursor.p!
  const organizationId = caller.organizationId
  const page: Pick<SyncPage, 'keychains' | 'tags' | 'transfers'> = { keychains: [], tags: [], transfers: [] }
  let last: string | null = null
  if (progress.e === 'tags') {
    page.tags = await tagPage(db, organizationId, progress.a, limit, publicUrl)
    last = page.tags.at(-1)?.code ?? null
  } else if (progress.e === 'keychains') {
    page.keychains = await keychainPage(db, organizationId, progress.a, limit)
    last = page.keychains.at(-1)?.id ?? null
  } else {
    page.transfers = await transferPage(db, organizationId, readerOf(caller), progress.a, limit, {
      now,
      publicUrl,
    })
    last = page.transfers.at(-1)?.id ?? null
  }
  const count = page.tags.length + page.keychains.length + page.transfers.length
  const done = progress.d + count
  const entities = entitiesFor(caller)
  const following = entities[entities.indexOf(progress.e) + 1]
  // A short page ends its entity: the next one starts, or, after the last, the events since the start.
  const next: CursorInput['p'] =
    count === limit
      ? { ...progress, a: last, d: done }
      : following
        ? { e: following, a: null, d: done, n: progress.n }
        : undefined
  return {
    ...emptyPage(caller),
    ...page,
    reset,
    phase: 'snapshot',
    cursor: encodeSyncCursor(issue(context, { s: cursor.s, p: next })),
    more: true,
    progress: { done, total: Math.max(progress.n, done) },
  }
}

async function changesPage(context: FeedContext, cursor: SyncCursor): Promise<FeedPage> {
  const { db, caller, limit, now, publicUrl } = context
  const organizationId = caller.organizationId
  // The one query of a device that is up to date (primary key range; an empty answer ends here).
  const events = await db
    .select({
      seq: organizationEvents.seq,
      kind: organizationEvents.kind,
      keychainIds: organizationEvents.keychainIds,
      tagIds: organizationEvents.tagIds,
      transferIds: organizationEvents.transferIds,
    })
    .from(organizationEvents)
    .where(and(eq(organizationEvents.organizationId, organizationId), gt(organizationEvents.seq, cursor.s)))
    .orderBy(asc(organizationEvents.seq))
    .limit(limit)
  const base = { ...emptyPage(caller), reset: false, phase: 'changes' as const, progress: null }
  const lastSeq = events.at(-1)?.seq ?? cursor.s
  const nextCursor = encodeSyncCursor(issue(context, { s: lastSeq }))
  if (events.length === 0) return { ...base, cursor: nextCursor, more: false }

  const reads = (permission: Permission) => caller.permissions.includes(permission)
  // Entries that change no row of the mirror (a scan) move the cursor on and fetch nothing.
  const changes = events.filter((event) => !LOG_ONLY_KINDS.has(event.kind as EventKind))
  const keychainIds = [...new Set(changes.flatMap((event) => event.keychainIds))]
  const tagIds = [...new Set(changes.flatMap((event) => event.tagIds))]
  const transferIds = [...new Set(changes.flatMap((event) => event.transferIds))]
  const keychains = reads('read__keychain') ? await keychainsByIds(db, organizationId, keychainIds) : []
  const found = new Set(keychains.map((keychain) => keychain.id))
  return {
    ...base,
    keychains,
    tags: reads('read__tag') ? await tagsByIds(db, organizationId, { tagIds, keychainIds }, publicUrl) : [],
    transfers: await transfersByIds(db, organizationId, { transferIds, keychainIds }, readerOf(caller), {
      now,
      publicUrl,
    }),
    // Keychains are the one row that goes away (transfers are history; tags stay in their organization).
    deleted: { keychains: reads('read__keychain') ? keychainIds.filter((id) => !found.has(id)) : [] },
    cursor: nextCursor,
    more: events.length === limit,
  }
}
