import { and, asc, desc, eq, inArray, lt, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Person } from '../../../contract/person.ts'
import type {
  StocktakeCounts,
  StocktakeDetail,
  StocktakeItem,
  StocktakeSummary,
} from '../../../contract/stocktakes.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import type { Db } from '../../db/client.ts'
import {
  hooks,
  keychains,
  places,
  stocktakeDevices,
  stocktakeItems,
  stocktakeScans,
  stocktakes,
  users,
} from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { cursorInstant, decodeCursor, pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../../shared/person.ts'
import { hookRefs } from '../../shared/places.ts'

export const stocktakeNotFound = () => notFound('No such stocktake.')

/** The outcomes a scan counts as unexpected: a keychain not expected here, a value unknown to the organization. */
export const UNEXPECTED_OUTCOMES = ['UNEXPECTED', 'UNKNOWN'] as const

const starter = alias(users, 'starter')
const closer = alias(users, 'closer')

/** The tally of a stocktake, from its items' states and its unexpected scans (late ones count nowhere). */
const countsOf = (stocktakeId: SQL | string) => ({
  expected: sql<number>`(select count(*) from ${stocktakeItems} where ${stocktakeItems.stocktakeId} = ${stocktakeId})::int`,
  found: sql<number>`(select count(*) from ${stocktakeItems} where ${stocktakeItems.stocktakeId} = ${stocktakeId} and ${stocktakeItems.state} = 'FOUND')::int`,
  misplaced: sql<number>`(select count(*) from ${stocktakeItems} where ${stocktakeItems.stocktakeId} = ${stocktakeId} and ${stocktakeItems.state} = 'MISPLACED')::int`,
  missing: sql<number>`(select count(*) from ${stocktakeItems} where ${stocktakeItems.stocktakeId} = ${stocktakeId} and ${stocktakeItems.state} in ('PENDING', 'MISSING'))::int`,
  unexpected: sql<number>`(select count(*) from ${stocktakeScans} where ${stocktakeScans.stocktakeId} = ${stocktakeId} and not ${stocktakeScans.late} and ${stocktakeScans.outcome} in ('UNEXPECTED', 'UNKNOWN'))::int`,
})

/** One stocktake's tally, in one statement. */
export async function stocktakeCounts(db: Db, stocktakeId: string): Promise<StocktakeCounts> {
  const counts = countsOf(stocktakeId)
  const [row] = await db
    .select({
      expected: counts.expected,
      found: counts.found,
      misplaced: counts.misplaced,
      missing: counts.missing,
      unexpected: counts.unexpected,
    })
    .from(sql`(select 1) as one`)
  return toCounts(row!)
}

const toCounts = (row: StocktakeCounts): StocktakeCounts => ({
  expected: Number(row.expected),
  found: Number(row.found),
  misplaced: Number(row.misplaced),
  missing: Number(row.missing),
  unexpected: Number(row.unexpected),
})

const summaryColumns = () => {
  const counts = countsOf(sql`${stocktakes.id}`)
  return {
    stocktake: stocktakes,
    place: { id: places.id, name: places.name, kind: places.kind },
    starter: {
      id: starter.id,
      email: starter.email,
      firstName: starter.firstName,
      lastName: starter.lastName,
    },
    closer: { id: closer.id, email: closer.email, firstName: closer.firstName, lastName: closer.lastName },
    expected: counts.expected,
    found: counts.found,
    misplaced: counts.misplaced,
    missing: counts.missing,
    unexpected: counts.unexpected,
  }
}

const summaryQuery = (db: Db) =>
  db
    .select(summaryColumns())
    .from(stocktakes)
    .leftJoin(places, eq(places.id, stocktakes.placeId))
    .leftJoin(starter, eq(starter.id, stocktakes.startedById))
    .leftJoin(closer, eq(closer.id, stocktakes.closedById))

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['execute']>>[number]

const personOf = (
  row: { id: string | null; email: string | null; firstName: string | null; lastName: string | null } | null,
): Person | null =>
  row?.id ? toPerson(row as { id: string; email: string; firstName: string; lastName: string }) : null

function toSummary(row: SummaryRow): StocktakeSummary {
  const { stocktake } = row
  return {
    id: stocktake.id,
    status: stocktake.status,
    scope: row.place?.id ? { id: row.place.id, name: row.place.name, kind: row.place.kind } : null,
    startedAt: stocktake.startedAt.toISOString(),
    startedBy: personOf(row.starter),
    closedAt: stocktake.closedAt?.toISOString() ?? null,
    closedBy: personOf(row.closer),
    counts: toCounts(row),
  }
}

export async function stocktakeSummary(
  db: Db,
  organizationId: string,
  id: string,
): Promise<StocktakeSummary> {
  const [row] = await summaryQuery(db).where(
    and(eq(stocktakes.id, id), eq(stocktakes.organizationId, organizationId)),
  )
  if (!row) throw stocktakeNotFound()
  return toSummary(row)
}

/** `GET /stocktakes`: newest first (keyset on the start and the id), optionally one status. */
export async function listStocktakes(
  db: Db,
  organizationId: string,
  query: {
    cursor?: string | undefined
    limit?: number | undefined
    status?: StocktakeSummary['status'] | undefined
  },
) {
  const limit = pageLimit(query.limit)
  const where: Array<SQL | undefined> = [
    eq(stocktakes.organizationId, organizationId),
    query.status ? eq(stocktakes.status, query.status) : undefined,
  ]
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, 2)
    const after = cursorInstant(at!)
    where.push(
      or(lt(stocktakes.startedAt, after), and(eq(stocktakes.startedAt, after), lt(stocktakes.id, id!))),
    )
  }
  const rows = await summaryQuery(db)
    .where(and(...where))
    .orderBy(desc(stocktakes.startedAt), desc(stocktakes.id))
    .limit(limit + 1)
  return toPage(rows, limit, (row) => [row.stocktake.startedAt.toISOString(), row.stocktake.id], toSummary)
}

const finder = alias(users, 'finder')
const scanner = alias(users, 'scanner')
const expectedHook = alias(hooks, 'expected_hook')
const expectedPlace = alias(places, 'expected_place')

/** Every expected keychain of the stocktake and its state, board by board, hook by hook. */
async function stocktakeItemRows(db: Db, stocktakeId: string) {
  return db
    .select({
      item: stocktakeItems,
      keychain: { id: keychains.id, name: keychains.name, tagCodes: keychains.tagCodes },
      finder: { id: finder.id, email: finder.email, firstName: finder.firstName, lastName: finder.lastName },
    })
    .from(stocktakeItems)
    .innerJoin(keychains, eq(keychains.id, stocktakeItems.keychainId))
    .leftJoin(expectedHook, eq(expectedHook.id, stocktakeItems.expectedHookId))
    .leftJoin(expectedPlace, eq(expectedPlace.id, expectedHook.placeId))
    .leftJoin(finder, eq(finder.id, stocktakeItems.foundById))
    .where(eq(stocktakeItems.stocktakeId, stocktakeId))
    .orderBy(
      asc(expectedPlace.name),
      asc(expectedPlace.id),
      asc(expectedHook.position),
      asc(sql`lower(${keychains.name})`),
      asc(keychains.id),
    )
}

/** The scans of a stocktake that counted as unexpected (or, `late`, every scan received after its close). */
export async function stocktakeScanRows(db: Db, stocktakeId: string, which: 'unexpected' | 'late') {
  return db
    .select({
      scan: stocktakeScans,
      keychain: { id: keychains.id, name: keychains.name, tagCodes: keychains.tagCodes },
      scanner: {
        id: scanner.id,
        email: scanner.email,
        firstName: scanner.firstName,
        lastName: scanner.lastName,
      },
    })
    .from(stocktakeScans)
    .leftJoin(keychains, eq(keychains.id, stocktakeScans.keychainId))
    .leftJoin(scanner, eq(scanner.id, stocktakeScans.scannedById))
    .where(
      and(
        eq(stocktakeScans.stocktakeId, stocktakeId),
        which === 'late'
          ? eq(stocktakeScans.late, true)
          : and(eq(stocktakeScans.late, false), inArray(stocktakeScans.outcome, [...UNEXPECTED_OUTCOMES])),
      ),
    )
    .orderBy(asc(stocktakeScans.seq))
}

const keychainRef = (
  keychain: { id: string | null; name: string | null; tagCodes: string[] | null } | null,
) => (keychain?.id ? { id: keychain.id, name: keychain.name ?? '', tagCodes: keychain.tagCodes ?? [] } : null)

const refOf = (refs: Map<string, HookRef>, id: string | null) => (id ? (refs.get(id) ?? null) : null)

/** `GET /stocktakes/{id}`: the summary, per board, every item, the unexpected scans and the devices. */
export async function stocktakeDetail(db: Db, organizationId: string, id: string): Promise<StocktakeDetail> {
  const summary = await stocktakeSummary(db, organizationId, id)
  const [itemRows, scanRows, deviceRows, [stocktake]] = await Promise.all([
    stocktakeItemRows(db, id),
    stocktakeScanRows(db, id, 'unexpected'),
    db
      .select({
        device: stocktakeDevices,
        user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
      })
      .from(stocktakeDevices)
      .leftJoin(users, eq(users.id, stocktakeDevices.userId))
      .where(eq(stocktakeDevices.stocktakeId, id))
      .orderBy(asc(stocktakeDevices.deviceId)),
    db.select({ scanCount: stocktakes.scanCount }).from(stocktakes).where(eq(stocktakes.id, id)),
  ])
  const refs = await hookRefs(
    db,
    organizationId,
    [
      ...itemRows.flatMap(({ item }) => [item.expectedHookId, item.foundHookId]),
      ...scanRows.map(({ scan }) => scan.hookId),
    ].filter((each): each is string => each !== null),
  )
  const items: StocktakeItem[] = itemRows.map(({ item, keychain, finder }) => ({
    keychain: keychainRef(keychain)!,
    state: item.state,
    expectedHook: refOf(refs, item.expectedHookId),
    foundHook: refOf(refs, item.foundHookId),
    foundAt: item.foundAt?.toISOString() ?? null,
    foundBy: personOf(finder),
  }))
  const unexpected = scanRows.map(({ scan, keychain, scanner }) => ({
    keychain: keychainRef(keychain),
    value: scan.value,
    hook: refOf(refs, scan.hookId),
    scannedAt: scan.receivedAt.toISOString(),
    scannedBy: personOf(scanner),
  }))
  return {
    ...summary,
    boards: boardsOf(items, unexpected),
    items,
    unexpected,
    devices: deviceRows.map(({ device, user }) => ({
      deviceId: device.deviceId,
      person: personOf(user),
      made: device.made,
      received: device.received,
    })),
    scanCount: stocktake?.scanCount ?? 0,
  }
}

/**
 * The tally per board (or cabinet): its expected keychains by state (by the hook they were expected on) and
 * the unexpected scans made on its hooks; boards in the order the items come (by name).
 */
function boardsOf(
  items: Array<Pick<StocktakeItem, 'state' | 'expectedHook'>>,
  unexpected: Array<{ hook: HookRef | null }>,
): StocktakeDetail['boards'] {
  const boards = new Map<string, StocktakeDetail['boards'][number]>()
  const board = (hook: HookRef) => {
    let entry = boards.get(hook.placeId)
    if (!entry) {
      entry = {
        place: { id: hook.placeId, name: hook.placeName },
        counts: { expected: 0, found: 0, misplaced: 0, missing: 0, unexpected: 0 },
      }
      boards.set(hook.placeId, entry)
    }
    return entry.counts
  }
  for (const item of items) {
    if (!item.expectedHook) continue
    const counts = board(item.expectedHook)
    counts.expected += 1
    if (item.state === 'FOUND') counts.found += 1
    else if (item.state === 'MISPLACED') counts.misplaced += 1
    else counts.missing += 1
  }
  for (const scan of unexpected) if (scan.hook) board(scan.hook).unexpected += 1
  return [...boards.values()]
}
