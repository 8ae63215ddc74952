import { stringify } from 'csv-stringify/sync'
import { and, arrayContains, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm'
import type { ActivityEntry, ActivityQuery, ActivityRefs } from '../../../contract/activity.ts'
import type { EventKind } from '../../../contract/events.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, memberships, organizationEvents, tags, transfers, users } from '../../db/schema.ts'
import {
  decodeCursor,
  isUuid,
  likeContains,
  malformedCursor,
  pageLimit,
  toPage,
} from '../../http/pagination.ts'
import { toPerson } from '../../shared/person.ts'
import { startOfDayIn } from '../../shared/time-zones.ts'
import { isoOfEpoch } from './chain-digest.ts'
import { ACTIVITY_CSV_COLUMNS, SIGNED_HEAD_ROW } from './export-columns.ts'
import { ledgerHead, signedHead } from './head.ts'
import type { SignedHead } from './signed-head.ts'

type Scope = { organizationId: string; timeZone: string; query: ActivityQuery }

/** The filters of a view of the log, as SQL conditions (days in the organization's time zone, both included). */
function conditions({ organizationId, timeZone, query }: Scope): SQL[] {
  const where: Array<SQL | undefined> = [
    eq(organizationEvents.organizationId, organizationId),
    query.kind ? eq(organizationEvents.kind, query.kind) : undefined,
    query.person ? eq(organizationEvents.actorId, query.person) : undefined,
    query.keychain ? arrayContains(organizationEvents.keychainIds, [query.keychain]) : undefined,
    query.tag ? arrayContains(organizationEvents.tagIds, [query.tag]) : undefined,
    query.from ? gte(organizationEvents.serverTime, startOfDayIn(timeZone, query.from)) : undefined,
    query.to
      ? lt(organizationEvents.serverTime, startOfDayIn(timeZone, shiftCalendarDay(query.to, 1)))
      : undefined,
    query.q ? searched(organizationId, likeContains(query.q)) : undefined,
  ]
  return where.filter((each): each is SQL => each !== undefined)
}

/**
 * Entries that name `pattern` (a `like` pattern, lower case): one of their keychains (by its name now, through its
 * trigram index), one of their tags (code or name), the person who did it (name or e-mail), or the name the entry
 * recorded (a keychain or key name, or its `{ from, to }` on a rename; a deleted keychain lives on only there).
 */
function searched(organizationId: string, pattern: string): SQL {
  return sql`(
    ${organizationEvents.keychainIds} && array(select ${keychains.id} from ${keychains}
      where ${keychains.organizationId} = ${organizationId} and lower(${keychains.name}) like ${pattern})
    or ${organizationEvents.tagIds} && array(select ${tags.id} from ${tags}
      where ${tags.organizationId} = ${organizationId}
        and (lower(${tags.code}) like ${pattern} or lower(${tags.name}) like ${pattern}))
    or lower(${organizationEvents.payload}->>'name') like ${pattern}
    or lower(${users.firstName} || ' ' || ${users.lastName}) like ${pattern}
    or lower(${users.email}) like ${pattern}
  )`
}

/** What an entry shows, no more (not the hash, nor the author's whole row): a year's export reads every row. */
const shown = {
  seq: organizationEvents.seq,
  kind: organizationEvents.kind,
  serverTime: organizationEvents.serverTime,
  clientTime: organizationEvents.clientTime,
  fromQueue: organizationEvents.fromQueue,
  keychainIds: organizationEvents.keychainIds,
  tagIds: organizationEvents.tagIds,
  transferIds: organizationEvents.transferIds,
  payload: organizationEvents.payload,
}

/**
 * What the export adds: the entry's hash and every field of its digest as the database writes it into the hash
 * (instants to the microsecond, the payload as `jsonb` prints it), so the chain can be recomputed from the file.
 */
const chained = {
  ...shown,
  actorId: organizationEvents.actorId,
  hash: organizationEvents.hash,
  serverEpoch: sql<string>`extract(epoch from ${organizationEvents.serverTime})::text`,
  clientEpoch: sql<string | null>`extract(epoch from ${organizationEvents.clientTime})::text`,
  payloadText: sql<string>`${organizationEvents.payload}::text`,
}

/** Up to `size` entries of the view before `beforeSeq` (newest first), with who did each. */
function entries<Fields extends typeof shown>(
  db: Db,
  where: SQL[],
  beforeSeq: number | null,
  size: number,
  fields: Fields,
) {
  return db
    .select({
      event: fields,
      actor: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
    })
    .from(organizationEvents)
    .leftJoin(users, eq(users.id, organizationEvents.actorId))
    .where(and(...where, beforeSeq === null ? undefined : lt(organizationEvents.seq, beforeSeq)))
    .orderBy(desc(organizationEvents.seq))
    .limit(size)
}

type Row = Awaited<ReturnType<typeof entries<typeof shown>>>[number]
type ChainedRow = Awaited<ReturnType<typeof entries<typeof chained>>>[number]

function toEntry({ event, actor }: Row): ActivityEntry {
  return {
    seq: event.seq,
    kind: event.kind as EventKind,
    actor: actor ? toPerson(actor) : null,
    serverTime: event.serverTime.toISOString(),
    clientTime: event.clientTime?.toISOString() ?? null,
    fromQueue: event.fromQueue,
    keychainIds: event.keychainIds,
    tagIds: event.tagIds,
    transferIds: event.transferIds,
    payload: event.payload as Record<string, unknown>,
  }
}

/** The cursor holds the last entry's number. */
function cursorSeq(cursor: string | undefined): number | null {
  if (!cursor) return null
  const [seq] = decodeCursor(cursor, 1)
  // Stryker disable next-line StringLiteral: decodeCursor(cursor, 1) answers exactly one string
  if (!/^\d{1,15}$/.test(seq ?? '')) throw malformedCursor()
  return Number(seq)
}

/** Kinds whose ids stand for a batch (an import, an order's tags): the entry shows their count, not each name. */
const COUNTED: ReadonlySet<string> = new Set(['keychains.imported', 'tags.created'])

/** The ids of people an entry's payload names: a custodian (from, to), a recipient, a member, a handover's two. */
function peopleOf(payload: Record<string, unknown>): unknown[] {
  const custodian = payload.custodian as { from?: unknown; to?: unknown } | null | undefined
  return [
    payload.custodianId,
    payload.recipientId,
    payload.memberId,
    custodian?.from,
    custodian?.to,
    payload.giverId,
    payload.receiverId,
  ]
}

/** The well-formed ids, once each (a payload is free JSON). */
const validIds = (ids: Iterable<unknown>): string[] => [...new Set(ids)].filter(isUuid)

/** A uuid[] literal as one parameter. */
const uuids = (ids: string[]): SQL => sql`${`{${ids.join(',')}}`}::uuid[]`

/** One referenced row; `b` and `c` are null only where the arm says (a keychain not deleted; a keychain or tag). */
type RefRow = { ref: string; id: string; a: string; b: string | null; c: string | null }

/**
 * What the entries of a page and the view's filters point at, in one statement whatever the page holds: the
 * keychains and tags of the organization by id, the transfers with their recipient and window, and the people
 * named (payload ids and the transfers' recipients).
 */
async function refsOf(
  db: Db,
  organizationId: string,
  rows: Row[],
  query: Pick<ActivityQuery, 'keychain' | 'tag' | 'person'> = {},
): Promise<ActivityRefs> {
  const keychainIds = new Set<unknown>(query.keychain ? [query.keychain] : [])
  const tagIds = new Set<unknown>(query.tag ? [query.tag] : [])
  const transferIds = new Set<unknown>()
  // The people the entries name are the organization's business; a person asked for by id is named only if
  // they are (or were invited as) one of its members, so the filter cannot read any account's name.
  const personIds = new Set<unknown>()
  const asked = query.person ? [query.person] : []
  for (const { event } of rows) {
    const payload = (event.payload ?? {}) as Record<string, unknown>
    if (!COUNTED.has(event.kind)) {
      for (const id of event.keychainIds) keychainIds.add(id)
      for (const id of event.tagIds) tagIds.add(id)
    }
    for (const id of event.transferIds) transferIds.add(id)
    for (const id of peopleOf(payload)) personIds.add(id)
  }
  const refs: ActivityRefs = { keychains: {}, tags: {}, people: {}, transfers: {} }
  const ids = {
    keychains: validIds(keychainIds),
    tags: validIds(tagIds),
    transfers: validIds(transferIds),
    people: validIds(personIds),
    asked: validIds(asked),
  }
  if (Object.values(ids).every((list) => list.length === 0)) return refs
  const found = (await db.execute(sql`
    select 'keychain' as ref, ${keychains.id}::text as id, ${keychains.name} as a, ${keychains.deletedAt}::text as b,
      null as c
    from ${keychains}
    where ${keychains.organizationId} = ${organizationId} and ${keychains.id} = any(${uuids(ids.keychains)})
    union all
    select 'tag', ${tags.id}::text, ${tags.code}, ${tags.name}, null
    from ${tags}
    where ${tags.organizationId} = ${organizationId} and ${tags.id} = any(${uuids(ids.tags)})
    union all
    select 'transfer', ${transfers.id}::text, ${transfers.recipientId}::text, ${transfers.fromDate}::text,
      ${transfers.toDate}::text
    from ${transfers}
    where ${transfers.organizationId} = ${organizationId} and ${transfers.id} = any(${uuids(ids.transfers)})
    union all
    select 'person', ${users.id}::text, ${users.email}, ${users.firstName}, ${users.lastName}
    from ${users}
    where ${users.id} = any(${uuids(ids.people)})
      or (${users.id} = any(${uuids(ids.asked)}) and exists (select from ${memberships}
        where ${memberships.userId} = ${users.id} and ${memberships.organizationId} = ${organizationId}))
      or ${users.id} in (select ${transfers.recipientId} from ${transfers}
        where ${transfers.organizationId} = ${organizationId} and ${transfers.id} = any(${uuids(ids.transfers)}))
  `)) as unknown as { rows: RefRow[] }
  for (const { ref, id, a, b, c } of found.rows) {
    if (ref === 'keychain') refs.keychains[id] = { name: a, deleted: b !== null }
    else if (ref === 'tag') refs.tags[id] = { code: a, name: b as string }
    else if (ref === 'transfer')
      refs.transfers[id] = { recipientId: a, fromDate: b as string, toDate: c as string }
    else refs.people[id] = toPerson({ id, email: a, firstName: b as string, lastName: c as string })
  }
  return refs
}

/** `GET /activity`: a page of the view, newest first, with what its entries point at (`refs`). */
export async function listActivity(db: Db, scope: Scope) {
  const limit = pageLimit(scope.query.limit)
  const rows = await entries(db, conditions(scope), cursorSeq(scope.query.cursor), limit + 1, shown)
  const page = toPage(rows, limit, (row) => [String(row.event.seq)], toEntry)
  return { ...page, refs: await refsOf(db, scope.organizationId, rows.slice(0, limit), scope.query) }
}

/** Rows read per statement while exporting: memory stays flat whatever the view's size. */
export const EXPORT_BATCH = 1000

/** An entry's keychains by name: their name now, or for a keychain gone for good the one its entry recorded. */
function keychainNames(event: Row['event'], refs: ActivityRefs): string {
  const payload = (event.payload ?? {}) as Record<string, unknown>
  const recorded = event.kind.startsWith('keychain.') && typeof payload.name === 'string' ? payload.name : ''
  return event.keychainIds
    .map((id) => refs.keychains[id]?.name ?? recorded)
    .filter((name) => name !== '')
    .join('; ')
}

const csvOptions = (header: boolean) => ({
  header,
  columns: [...ACTIVITY_CSV_COLUMNS],
  record_delimiter: 'windows' as const,
  quoted_match: /[\r\n]/,
  escape_formulas: true,
})

function csvRecords(rows: ChainedRow[], refs: ActivityRefs, header: boolean): string {
  return stringify(
    rows.map(({ event, actor }) => [
      event.seq,
      event.kind,
      isoOfEpoch(event.serverEpoch),
      event.clientEpoch === null ? '' : isoOfEpoch(event.clientEpoch),
      event.fromQueue ? 'yes' : 'no',
      actor?.email ?? '',
      actor ? `${actor.firstName} ${actor.lastName}`.trim() : '',
      event.keychainIds.join(' '),
      event.tagIds.join(' '),
      event.transferIds.join(' '),
      event.payloadText,
      keychainNames(event, refs),
      event.tagIds
        .map((id) => refs.tags[id]?.code)
        .filter((code) => code !== undefined)
        .join('; '),
      event.actorId ?? '',
      event.hash,
    ]),
    csvOptions(header),
  )
}

/** The export's last row: the signed head's line in `details`, its hash under `hash`, no entry number. */
function signedHeadRecord(head: SignedHead): string {
  const row = { kind: SIGNED_HEAD_ROW, server_time: head.signedAt, details: head.token, hash: head.hash }
  return stringify([row], csvOptions(false))
}

/**
 * `GET /activity/export`: the whole view as CSV, streamed batch by batch (keyset on the entry number), so a year
 * of a large organization goes out without being held in memory; the next batch is read only when the client
 * has taken the last one (the stream's back-pressure). The log's head is read and signed first and the export
 * stops there (entries appended meanwhile are not in it); it is the last row, so an export of the whole log can
 * be checked without the database (`npm run verify:activity`).
 */
export function activityCsv(
  db: Db,
  scope: Scope,
  signing: { secret: Buffer; now: () => Date },
): ReadableStream<Uint8Array> {
  const where = conditions(scope)
  const encoder = new TextEncoder()
  let head: SignedHead | null = null
  let before: number | null = null
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const first = head === null
      if (head === null) {
        const last = await ledgerHead(db, scope.organizationId)
        head = signedHead(signing.secret, signing.now(), scope.organizationId, last)
        before = last.seq + 1
      }
      const rows = await entries(db, where, before, EXPORT_BATCH, chained)
      // The names of the batch's keychains and tags: one statement more per batch, whatever it holds.
      const refs = await refsOf(db, scope.organizationId, rows)
      if (rows.length > 0 || first) controller.enqueue(encoder.encode(csvRecords(rows, refs, first)))
      if (rows.length < EXPORT_BATCH) {
        controller.enqueue(encoder.encode(signedHeadRecord(head)))
        controller.close()
        return
      }
      before = rows.at(-1)!.event.seq
    },
  })
}
