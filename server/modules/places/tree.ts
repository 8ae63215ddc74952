import { and, asc, count, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm'
import type { Hook, Place, PlaceDetail } from '../../../contract/places.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains, places, stocktakeItems, stocktakeScans, stocktakes } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'

export type PlaceRow = typeof places.$inferSelect

/** The organization's places, each once, parents before children and siblings by name (then id). */
function inTreeOrder<T extends { id: string; parentId: string | null; name: string }>(rows: T[]): T[] {
  const children = Map.groupBy(rows, (row) => row.parentId)
  const ids = new Set<string | null>(rows.map((row) => row.id))
  const byName = (a: T, b: T) =>
    // Stryker disable next-line EqualityOperator: ids are unique, so < and <= agree
    a.name.localeCompare(b.name, 'fr', { numeric: true }) || (a.id < b.id ? -1 : 1)
  const ordered: T[] = []
  const visit = (row: T) => {
    ordered.push(row)
    for (const child of (children.get(row.id) ?? []).sort(byName)) visit(child)
  }
  // Top-level places (a null parent is never an id) and, defensively, any whose parent is not in the list.
  for (const row of rows.filter((row) => !ids.has(row.parentId)).sort(byName)) visit(row)
  return ordered
}

type LastStocktake = NonNullable<Place['lastStocktake']>

/**
 * Each place's last closed stocktake with its result: found, misplaced and missing from its items' states,
 * unexpected as the distinct keychains (or unknown values) of its counted scans outside what it expected.
 */
async function lastStocktakes(db: Db, organizationId: string): Promise<Map<string, LastStocktake>> {
  const last = await db
    .selectDistinctOn([stocktakes.placeId], {
      id: stocktakes.id,
      placeId: stocktakes.placeId,
      closedAt: stocktakes.closedAt,
    })
    .from(stocktakes)
    .where(
      and(
        eq(stocktakes.organizationId, organizationId),
        eq(stocktakes.status, 'CLOSED'),
        isNotNull(stocktakes.placeId),
      ),
    )
    .orderBy(stocktakes.placeId, sql`${stocktakes.closedAt} desc nulls last`, stocktakes.id)
  if (last.length === 0) return new Map()
  const ids = last.map((row) => row.id)
  const [states, unexpected] = await Promise.all([
    db
      .select({ id: stocktakeItems.stocktakeId, state: stocktakeItems.state, n: count() })
      .from(stocktakeItems)
      .where(inArray(stocktakeItems.stocktakeId, ids))
      .groupBy(stocktakeItems.stocktakeId, stocktakeItems.state),
    db
      .select({
        id: stocktakeScans.stocktakeId,
        n: sql<number>`count(distinct coalesce(${stocktakeScans.keychainId}::text, ${stocktakeScans.value}))::int`,
      })
      .from(stocktakeScans)
      .where(
        and(
          inArray(stocktakeScans.stocktakeId, ids),
          inArray(stocktakeScans.outcome, ['UNEXPECTED', 'UNKNOWN']),
          eq(stocktakeScans.late, false),
        ),
      )
      .groupBy(stocktakeScans.stocktakeId),
  ])
  const result = new Map<string, LastStocktake>()
  for (const row of last) {
    const of = (state: string) => states.find((entry) => entry.id === row.id && entry.state === state)?.n ?? 0
    result.set(row.placeId as string, {
      id: row.id,
      closedAt: (row.closedAt as Date).toISOString(),
      found: of('FOUND'),
      missing: of('MISSING'),
      misplaced: of('MISPLACED'),
      unexpected: unexpected.find((entry) => entry.id === row.id)?.n ?? 0,
    })
  }
  return result
}

/**
 * `GET /places`: the whole tree, flat, in tree order, each place with its hooks, the keychains whose home is
 * in its subtree, its recurring stocktake and its last result. Four statements whatever the tree's size.
 */
export async function placeTree(db: Db, organizationId: string): Promise<Place[]> {
  const [rows, hookCounts, homeCounts, last] = await Promise.all([
    db.select().from(places).where(eq(places.organizationId, organizationId)),
    db
      .select({ placeId: hooks.placeId, n: count() })
      .from(hooks)
      .where(eq(hooks.organizationId, organizationId))
      .groupBy(hooks.placeId),
    db
      .select({ placeId: hooks.placeId, n: count() })
      .from(keychains)
      .innerJoin(hooks, eq(hooks.id, keychains.homeHookId))
      .where(and(eq(keychains.organizationId, organizationId), isNull(keychains.deletedAt)))
      .groupBy(hooks.placeId),
    lastStocktakes(db, organizationId),
  ])
  const ordered = inTreeOrder(rows)
  const own = new Map(homeCounts.map((row) => [row.placeId, row.n]))
  // Subtree sums: children come after their parent, so walk the order backwards.
  const homes = new Map(ordered.map((row) => [row.id, own.get(row.id) ?? 0]))
  for (const row of [...ordered].reverse()) {
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a sum carried to null or out of the tree is never read
    if (row.parentId && homes.has(row.parentId))
      homes.set(row.parentId, (homes.get(row.parentId) ?? 0) + (homes.get(row.id) ?? 0))
  }
  const hookCount = new Map(hookCounts.map((row) => [row.placeId, row.n]))
  return ordered.map((row) => ({
    id: row.id,
    parentId: row.parentId,
    kind: row.kind,
    name: row.name,
    depth: row.depth,
    publicId: row.publicId,
    hookCount: hookCount.get(row.id) ?? 0,
    homeCount: homes.get(row.id) ?? 0,
    stocktakeEvery: row.stocktakeEvery,
    stocktakeDueOn: row.stocktakeDueOn,
    lastStocktake: last.get(row.id) ?? null,
  }))
}

/** A board's hooks in position order (then code), each with the keychains whose home it is. */
export async function hooksOf(db: Db, placeId: string, only?: string[]): Promise<Hook[]> {
  const rows = await db
    .select()
    .from(hooks)
    .where(and(eq(hooks.placeId, placeId), only ? inArray(hooks.id, only) : undefined))
    .orderBy(asc(hooks.position), asc(hooks.code))
  if (rows.length === 0) return []
  const homed = await db
    .select({ id: keychains.id, name: keychains.name, hookId: keychains.homeHookId })
    .from(keychains)
    .where(
      and(
        inArray(
          keychains.homeHookId,
          rows.map((row) => row.id),
        ),
        isNull(keychains.deletedAt),
      ),
    )
    .orderBy(asc(keychains.sortName), asc(keychains.id))
  const of = Map.groupBy(homed, (row) => row.hookId)
  return rows.map((row) => ({
    id: row.id,
    placeId: row.placeId,
    code: row.code,
    publicId: row.publicId,
    homeOf: (of.get(row.id) ?? []).map(({ id, name }) => ({ id, name })),
  }))
}

/** `GET /places/{id}`: the place as the tree shows it, its ancestors from the top, its hooks in order. */
export async function placeDetail(db: Db, organizationId: string, id: string): Promise<PlaceDetail> {
  const tree = await placeTree(db, organizationId)
  const byId = new Map(tree.map((place) => [place.id, place]))
  const place = byId.get(id)
  if (!place) throw notFound('No such place.')
  const path: PlaceDetail['path'] = []
  for (let at = place.parentId ? byId.get(place.parentId) : undefined; at; ) {
    path.unshift({ id: at.id, name: at.name, kind: at.kind })
    at = at.parentId ? byId.get(at.parentId) : undefined
  }
  return { ...place, path, hooks: await hooksOf(db, id) }
}

/** One place of the organization (locked for the transaction with `lock`); another organization's is a 404. */
export async function findPlace(
  db: Db,
  organizationId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<PlaceRow> {
  const query = db
    .select()
    .from(places)
    .where(and(eq(places.organizationId, organizationId), eq(places.id, id)))
  const [row] = options.lock ? await query.for('update') : await query
  if (!row) throw notFound('No such place.')
  return row
}
