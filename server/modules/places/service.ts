import { and, count, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  HOOK_HOLDERS,
  HOOKS_PER_PLACE_MAX,
  type HookRange,
  PLACE_DEPTH_MAX,
  type PlaceCreate,
  type PlaceDetail,
  type PlaceUpdate,
  type StocktakeInterval,
} from '../../../contract/places.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains, organizations, places, stocktakes } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { placeSubtreeIds } from '../../shared/places.ts'
import { addMonthsIn, calendarDayIn } from '../../shared/time-zones.ts'
import { appendEvent } from '../events/append.ts'
import { newLocationPublicId } from './public-id.ts'
import { findPlace, hooksOf, type PlaceRow, placeDetail } from './tree.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>
type Actor = { organizationId: string; actorId: string }

const treeRefused = (message: string) => new ApiError(409, ErrorCode.placeTreeRefused, message)
const inUse = (message: string) => new ApiError(409, ErrorCode.placeInUse, message)

const MONTHS: Record<StocktakeInterval, number> = { MONTHLY: 1, QUARTERLY: 3 }

/** The day a recurring stocktake set now is next due: that many months on, in the organization's time zone. */
export function nextDueOn(timeZone: string, now: Date, every: StocktakeInterval): string {
  return calendarDayIn(timeZone, addMonthsIn(timeZone, now, MONTHS[every]))
}

/** A parent for a place: one of the organization's, not a board or cabinet, with room under it. */
function assertParent(parent: PlaceRow, depthBelow: number) {
  if (HOOK_HOLDERS.has(parent.kind))
    throw treeRefused(`“${parent.name}” is a board or a cabinet: it holds hooks, not places.`)
  if (parent.depth + 1 + depthBelow > PLACE_DEPTH_MAX)
    throw treeRefused(`A place may be at most ${PLACE_DEPTH_MAX} levels under a top-level place.`)
}

/** Makes a place; a board or cabinet gets the public id its label encodes. */
export async function createPlace(deps: Deps, input: Actor & { place: PlaceCreate }): Promise<PlaceDetail> {
  const now = deps.clock.now()
  const { organizationId } = input
  const id = await deps.database.db.transaction(async (tx) => {
    const parentId = input.place.parentId ?? null
    let depth = 0
    if (parentId) {
      // Locked: a parent deleted meanwhile would otherwise be a foreign-key failure.
      const parent = await findPlace(tx, organizationId, parentId, { lock: true })
      assertParent(parent, 0)
      depth = parent.depth + 1
    }
    const [row] = await tx
      .insert(places)
      .values({
        organizationId,
        parentId,
        kind: input.place.kind,
        name: input.place.name,
        depth,
        publicId: HOOK_HOLDERS.has(input.place.kind) ? newLocationPublicId() : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    // Stryker disable next-line ConditionalExpression,StringLiteral,CallExpression: insert … returning gives its row
    if (!row) throw new Error('place insert returned no row')
    await appendEvent(tx, {
      organizationId,
      kind: 'place.created',
      actorId: input.actorId,
      serverTime: now,
      payload: { placeId: row.id, name: row.name, kind: row.kind, parentId },
    })
    return row.id
  })
  return placeDetail(deps.database.db, organizationId, id)
}

/**
 * Renames, moves (with everything under it: depths follow) and sets or clears the recurring stocktake. A move
 * under itself or a place under it, under a board or cabinet, or deeper than the limit is refused (409). The
 * organization's places are locked for a move, so that two moves at once cannot make a loop.
 */
export async function updatePlace(
  deps: Deps,
  input: Actor & { id: string; update: PlaceUpdate },
): Promise<PlaceDetail> {
  const now = deps.clock.now()
  const { organizationId, update } = input
  await deps.database.db.transaction(async (tx) => {
    const moves = update.parentId !== undefined
    // Stryker disable ObjectLiteral: only the lock counts, not the columns read
    if (moves)
      await tx
        .select({ id: places.id })
        .from(places)
        .where(eq(places.organizationId, organizationId))
        .orderBy(places.id)
        .for('update')
    // Stryker restore ObjectLiteral
    const current = await findPlace(tx, organizationId, input.id, { lock: true })
    const change: Partial<PlaceRow> = {}
    const payload: Record<string, unknown> = { placeId: current.id }
    if (update.name !== undefined && update.name !== current.name) {
      change.name = update.name
      payload.name = { from: current.name, to: update.name }
    }
    let depthShift = 0
    // Stryker disable next-line ArrayDeclaration: read only after a move, which sets it
    let subtree: string[] = []
    if (moves && (update.parentId ?? null) !== current.parentId) {
      const parentId = update.parentId ?? null
      subtree = await placeSubtreeIds(tx, organizationId, current.id)
      let depth = 0
      if (parentId) {
        if (subtree.includes(parentId))
          throw treeRefused('A place cannot move under itself or a place under it.')
        const parent = await findPlace(tx, organizationId, parentId)
        const [below] = await tx
          .select({ deepest: sql<number>`coalesce(max(${places.depth}), 0)::int` })
          .from(places)
          .where(inArray(places.id, subtree))
        // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always gives one row
        assertParent(parent, (below?.deepest ?? current.depth) - current.depth)
        depth = parent.depth + 1
      }
      change.parentId = parentId
      depthShift = depth - current.depth
      payload.parentId = { from: current.parentId, to: parentId }
    }
    if (update.stocktakeEvery !== undefined && update.stocktakeEvery !== current.stocktakeEvery) {
      const every = update.stocktakeEvery
      change.stocktakeEvery = every
      if (every) {
        const [organization] = await tx
          .select({ timeZone: organizations.timeZone })
          .from(organizations)
          .where(eq(organizations.id, organizationId))
        // Stryker disable next-line OptionalChaining,StringLiteral: the organization acting always exists
        change.stocktakeDueOn = nextDueOn(organization?.timeZone ?? 'Europe/Paris', now, every)
      } else change.stocktakeDueOn = null
      payload.stocktakeEvery = { from: current.stocktakeEvery, to: every }
    }
    if (Object.keys(change).length === 0) return
    await tx
      .update(places)
      .set({ ...change, updatedAt: now })
      .where(eq(places.id, current.id))
    // Stryker disable next-line ConditionalExpression: a shift of 0 changes no depth (and no move, no subtree)
    if (depthShift !== 0)
      await tx
        .update(places)
        .set({ depth: sql`${places.depth} + ${depthShift}` })
        .where(inArray(places.id, subtree))
    await appendEvent(tx, {
      organizationId,
      kind: 'place.changed',
      actorId: input.actorId,
      serverTime: now,
      payload,
    })
  })
  return placeDetail(deps.database.db, organizationId, input.id)
}

/** Keychains (not deleted) whose home is one of these hooks. */
async function homesOn(tx: Db, where: ReturnType<typeof eq>): Promise<number> {
  const [row] = await tx
    .select({ n: count() })
    .from(keychains)
    .innerJoin(hooks, eq(hooks.id, keychains.homeHookId))
    .where(and(where, isNull(keychains.deletedAt)))
  // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always gives one row
  return row?.n ?? 0
}

/**
 * Deletes a place with its hooks. Refused (409) while places are under it, while a keychain's home is one of
 * its hooks, while an open stocktake covers it (of it, of a place above it, or of the whole organization), and
 * when stocktakes of it are on record (their reports name it).
 */
export async function deletePlace(deps: Deps, input: Actor & { id: string }): Promise<void> {
  const now = deps.clock.now()
  const { organizationId } = input
  await deps.database.db.transaction(async (tx) => {
    const place = await findPlace(tx, organizationId, input.id, { lock: true })
    const [children] = await tx.select({ n: count() }).from(places).where(eq(places.parentId, place.id))
    // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always gives one row
    if ((children?.n ?? 0) > 0) throw inUse('Places are under it: move or delete them first.')
    const homes = await homesOn(tx, eq(hooks.placeId, place.id))
    if (homes > 0) throw inUse(`${homes} keychain(s) live on its hooks: give them another home first.`)
    const ancestors = await ancestorIds(tx, organizationId, place.id)
    const covering = await tx
      .select({ id: stocktakes.id, placeId: stocktakes.placeId, status: stocktakes.status })
      .from(stocktakes)
      .where(
        and(
          eq(stocktakes.organizationId, organizationId),
          or(
            eq(stocktakes.placeId, place.id),
            and(
              eq(stocktakes.status, 'OPEN'),
              or(isNull(stocktakes.placeId), inArray(stocktakes.placeId, ancestors)),
            ),
          ),
        ),
      )
    if (covering.some((row) => row.status === 'OPEN'))
      throw inUse('A stocktake covering it is open: close it first.')
    if (covering.length > 0) throw inUse('Stocktakes of this place are on record: it stays in their reports.')
    await tx.delete(places).where(eq(places.id, place.id))
    await appendEvent(tx, {
      organizationId,
      kind: 'place.deleted',
      actorId: input.actorId,
      serverTime: now,
      payload: { placeId: place.id, name: place.name, kind: place.kind },
    })
  })
}

/** The place's ancestors' ids (its parent, its parent's parent…). */
async function ancestorIds(tx: Db, organizationId: string, placeId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: places.id, parentId: places.parentId })
    .from(places)
    .where(eq(places.organizationId, organizationId))
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]))
  const ids: string[] = []
  for (let at = parentOf.get(placeId); at; at = parentOf.get(at)) {
    if (ids.includes(at)) break
    ids.push(at)
  }
  return ids
}

/** `A-` and 7 at width 2: `A-07`. */
export const hookCode = (prefix: string, number: number, width: number) =>
  `${prefix}${String(number).padStart(width, '0')}`

/**
 * Hooks numbered in a range on a board or cabinet (409 on another kind), skipping the codes it has, at most
 * `HOOKS_PER_PLACE_MAX` on it in all (409 beyond). The place is locked: two ranges at once count each other.
 */
export async function addHooks(
  deps: Deps,
  input: Actor & { placeId: string; range: HookRange },
): Promise<{ created: number; skipped: number; hooks: PlaceDetail['hooks'] }> {
  const now = deps.clock.now()
  const { organizationId, range } = input
  return deps.database.db.transaction(async (tx) => {
    const place = await findPlace(tx, organizationId, input.placeId, { lock: true })
    if (!HOOK_HOLDERS.has(place.kind))
      throw new ApiError(409, ErrorCode.hooksRefused, 'Only a board or a cabinet has hooks.')
    const existing = await tx.select({ code: hooks.code }).from(hooks).where(eq(hooks.placeId, place.id))
    const taken = new Set(existing.map((row) => row.code))
    const wanted: Array<{ code: string; position: number }> = []
    for (let number = range.from; number <= range.to; number += 1) {
      const code = hookCode(range.prefix, number, range.width ?? 2)
      // Distinct numbers make distinct codes: only the board's own can repeat one.
      if (!taken.has(code)) wanted.push({ code, position: number })
    }
    const skipped = range.to - range.from + 1 - wanted.length
    if (existing.length + wanted.length > HOOKS_PER_PLACE_MAX)
      throw new ApiError(
        409,
        ErrorCode.hooksRefused,
        `A board holds at most ${HOOKS_PER_PLACE_MAX} hooks: it has ${existing.length}.`,
      )
    if (wanted.length === 0) return { created: 0, skipped, hooks: [] }
    const made = await tx
      .insert(hooks)
      .values(
        wanted.map((hook) => ({
          organizationId,
          placeId: place.id,
          code: hook.code,
          position: hook.position,
          publicId: newLocationPublicId(),
          createdAt: now,
        })),
      )
      .returning({ id: hooks.id, code: hooks.code })
    await appendEvent(tx, {
      organizationId,
      kind: 'hooks.created',
      actorId: input.actorId,
      serverTime: now,
      payload: { placeId: place.id, codes: made.map((hook) => hook.code) },
    })
    return {
      created: made.length,
      skipped,
      hooks: await hooksOf(
        tx,
        place.id,
        made.map((hook) => hook.id),
      ),
    }
  })
}

/** Removes a hook of the place; refused (409) while it is a keychain's home. */
export async function removeHook(
  deps: Deps,
  input: Actor & { placeId: string; hookId: string },
): Promise<void> {
  const now = deps.clock.now()
  const { organizationId } = input
  await deps.database.db.transaction(async (tx) => {
    const place = await findPlace(tx, organizationId, input.placeId)
    const [hook] = await tx
      .select()
      .from(hooks)
      .where(and(eq(hooks.placeId, place.id), eq(hooks.id, input.hookId)))
      .for('update')
    if (!hook) throw notFound('No such hook.')
    if ((await homesOn(tx, eq(hooks.id, hook.id))) > 0)
      throw inUse(`Hook ${hook.code} is a keychain’s home: give it another home first.`)
    await tx.delete(hooks).where(eq(hooks.id, hook.id))
    await appendEvent(tx, {
      organizationId,
      kind: 'hook.removed',
      actorId: input.actorId,
      serverTime: now,
      payload: { placeId: place.id, hookId: hook.id, code: hook.code },
    })
  })
}
