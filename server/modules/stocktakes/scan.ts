import { and, eq, inArray, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import { ROLES, type Role } from '../../../contract/permissions.ts'
import { parseLocationLabel } from '../../../contract/places.ts'
import type {
  StocktakeItemState,
  StocktakeScan,
  StocktakeScanOutcome,
  StocktakeScanResult,
} from '../../../contract/stocktakes.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import type { Db } from '../../db/client.ts'
import {
  hooks,
  keychains,
  organizations,
  places,
  stocktakeDevices,
  stocktakeItems,
  stocktakeScans,
  stocktakes,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, forbidden } from '../../http/errors.ts'
import { requestHash } from '../../http/idempotency.ts'
import { hookRefs } from '../../shared/places.ts'
import { findTag } from '../scans/service.ts'
import { stocktakeCounts, stocktakeNotFound, UNEXPECTED_OUTCOMES } from './view.ts'

/** What a scanned value names, read before the transaction: a hook, a board's own label, a keychain, nothing. */
type Named =
  | { kind: 'hook'; hook: HookRef }
  | { kind: 'board' }
  | { kind: 'keychain'; keychainId: string }
  | { kind: 'unknown' }

async function resolveValue(db: Db, organizationId: string, value: string): Promise<Named> {
  const label = parseLocationLabel(value)
  if (label?.kind === 'hook') {
    const [hook] = await db
      .select({ id: hooks.id })
      .from(hooks)
      .where(and(eq(hooks.publicId, label.publicId), eq(hooks.organizationId, organizationId)))
    const ref = hook ? (await hookRefs(db, organizationId, [hook.id])).get(hook.id) : undefined
    return ref ? { kind: 'hook', hook: ref } : { kind: 'unknown' }
  }
  if (label?.kind === 'place') {
    const [place] = await db
      .select({ id: places.id })
      .from(places)
      .where(and(eq(places.publicId, label.publicId), eq(places.organizationId, organizationId)))
    return place ? { kind: 'board' } : { kind: 'unknown' }
  }
  const found = await findTag(db, { organizationId }, value)
  if (found && found.tag.organizationId === organizationId && found.keychainId) {
    return { kind: 'keychain', keychainId: found.keychainId }
  }
  return { kind: 'unknown' }
}

/** Whether `role` reaches the organization's stocktake role (ROLES run from the most powerful down). */
export const reachesStocktakeRole = (role: Role, least: Role) => ROLES.indexOf(role) <= ROLES.indexOf(least)

/** The stored scan: its answer, and the hash of the request that made it (a replay must be that request). */
type StoredScan = { result: StocktakeScanResult; requestHash: string }

export type StocktakeScanInput = {
  organizationId: string
  role: Role
  userId: string
  stocktakeId: string
  /** The Idempotency-Key: the scan's own id. */
  key: string
  body: StocktakeScan
  clientTime: Date | null
}

/** Thrown inside the transaction when another request holds the scan's key or the device's number: undone. */
class NotClaimed extends Error {}

/**
 * `POST /stocktakes/{id}/scans`: records the scan once (its id is the Idempotency-Key: an
 * `INSERT … ON CONFLICT DO NOTHING` claims it) and decides what it was, under the stocktake's row lock, so that
 * scans of several devices at once are numbered one after the other and each expected keychain changes state
 * by a conditional `UPDATE`. A replay answers the stored answer and counts nothing; the same key for another
 * request is 422. A scan after the close is kept (`late`) and changes nothing.
 */
export async function recordStocktakeScan(
  deps: Pick<AppDeps, 'database' | 'clock'>,
  input: StocktakeScanInput,
): Promise<{ result: StocktakeScanResult; replayed: boolean }> {
  const { db } = deps.database
  const now = deps.clock.now()
  const { body } = input
  const [stocktake] = await db
    .select({ id: stocktakes.id, stocktakeRole: organizations.stocktakeRole })
    .from(stocktakes)
    .innerJoin(organizations, eq(organizations.id, stocktakes.organizationId))
    .where(and(eq(stocktakes.id, input.stocktakeId), eq(stocktakes.organizationId, input.organizationId)))
  if (!stocktake) throw stocktakeNotFound()
  if (!reachesStocktakeRole(input.role, stocktake.stocktakeRole)) throw forbidden()
  // Stryker disable next-line StringLiteral: the label only keeps this route's hashes apart from others'
  const hash = requestHash('POST /api/stocktakes/:id/scans', {
    stocktakeId: input.stocktakeId,
    userId: input.userId,
    value: body.value,
    hookId: body.hookId ?? null,
    deviceId: body.deviceId,
    deviceSeq: body.deviceSeq,
  })
  const replay = await storedScan(db, input.key, hash)
  // Stryker disable next-line ConditionalExpression: without this early answer the claim below finds the same stored answer
  if (replay) return { result: replay, replayed: true }

  const named = await resolveValue(db, input.organizationId, body.value)
  const bodyHook = body.hookId
    ? ((await hookRefs(db, input.organizationId, [body.hookId])).get(body.hookId) ?? null)
    : null
  const hook = named.kind === 'hook' ? named.hook : named.kind === 'board' ? null : bodyHook
  try {
    const result = await db.transaction(async (tx) => {
      const [locked] = await tx
        .select({ status: stocktakes.status })
        .from(stocktakes)
        .where(eq(stocktakes.id, input.stocktakeId))
        .for('update')
      const late = locked!.status !== 'OPEN'
      const { outcome, keychainId } = await decide(tx, {
        stocktakeId: input.stocktakeId,
        named,
        hookId: hook?.id ?? null,
        value: body.value,
        late,
        userId: input.userId,
        now,
      })
      const claimed = await tx
        .insert(stocktakeScans)
        .values({
          id: input.key,
          stocktakeId: input.stocktakeId,
          seq: sql`(select ${stocktakes.scanCount} + 1 from ${stocktakes} where ${stocktakes.id} = ${input.stocktakeId})`,
          value: body.value,
          hookId: hook?.id ?? null,
          keychainId,
          outcome,
          answer: {},
          scannedById: input.userId,
          deviceId: body.deviceId,
          deviceSeq: body.deviceSeq,
          clientTime: input.clientTime,
          receivedAt: now,
          late,
        })
        .onConflictDoNothing()
        .returning({ id: stocktakeScans.id })
      if (claimed.length === 0) throw new NotClaimed()
      await tx
        .update(stocktakes)
        .set({ scanCount: sql`${stocktakes.scanCount} + 1` })
        .where(eq(stocktakes.id, input.stocktakeId))
      await tx
        .insert(stocktakeDevices)
        .values({
          stocktakeId: input.stocktakeId,
          deviceId: body.deviceId,
          userId: input.userId,
          made: body.deviceSeq,
          received: 1,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [stocktakeDevices.stocktakeId, stocktakeDevices.deviceId],
          set: {
            userId: input.userId,
            made: sql`greatest(${stocktakeDevices.made}, excluded.made)`,
            received: sql`${stocktakeDevices.received} + 1`,
            updatedAt: now,
          },
        })
      const keychain = keychainId
        ? (
            await tx
              .select({ id: keychains.id, name: keychains.name, tagCodes: keychains.tagCodes })
              .from(keychains)
              .where(eq(keychains.id, keychainId))
          )[0]
        : undefined
      const result: StocktakeScanResult = {
        outcome,
        keychain: keychain ?? null,
        hook,
        counts: await stocktakeCounts(tx, input.stocktakeId),
        late,
      }
      await tx
        .update(stocktakeScans)
        .set({ answer: { result, requestHash: hash } satisfies StoredScan })
        .where(eq(stocktakeScans.id, input.key))
      return result
    })
    return { result, replayed: false }
  } catch (error) {
    if (!(error instanceof NotClaimed)) throw error
    // A twin request took the key meanwhile (its answer is the one), or this device's number is taken.
    const stored = await storedScan(db, input.key, hash)
    if (stored) return { result: stored, replayed: true }
    throw new ApiError(
      409,
      ErrorCode.conflict,
      'This device already sent another scan with this number for this stocktake.',
    )
  }
}

/** The stored answer of the scan whose id is `key`, for a replay of the same request; 422 for another request. */
async function storedScan(db: Db, key: string, hash: string): Promise<StocktakeScanResult | null> {
  const [row] = await db
    .select({ answer: stocktakeScans.answer })
    .from(stocktakeScans)
    .where(eq(stocktakeScans.id, key))
  if (!row) return null
  const stored = row.answer as StoredScan
  if (stored.requestHash !== hash) {
    throw new ApiError(
      422,
      ErrorCode.idempotencyKeyReused,
      'This Idempotency-Key was already used for another request.',
    )
  }
  return stored.result
}

/**
 * What the scan was, under the stocktake's lock. An expected keychain still PENDING becomes FOUND or MISPLACED
 * by a conditional `UPDATE … WHERE state = 'PENDING'`; one already seen is REPEATED (a scan on another hook
 * moves where it was found); another keychain of the organization is UNEXPECTED, anything else UNKNOWN, each
 * counted once (a second sighting is REPEATED). Late scans (the stocktake is closed) change nothing.
 */
async function decide(
  tx: Db,
  input: {
    stocktakeId: string
    named: Named
    hookId: string | null
    value: string
    late: boolean
    userId: string
    now: Date
  },
): Promise<{ outcome: StocktakeScanOutcome; keychainId: string | null }> {
  const { named } = input
  if (named.kind === 'hook' || named.kind === 'board') return { outcome: 'HOOK', keychainId: null }
  // Stryker disable next-line ConditionalExpression: only a keychain's name carries a keychain id
  const keychainId = named.kind === 'keychain' ? named.keychainId : null
  if (keychainId) {
    const item = and(
      eq(stocktakeItems.stocktakeId, input.stocktakeId),
      eq(stocktakeItems.keychainId, keychainId),
    )
    const [current] = await tx
      .select({
        state: stocktakeItems.state,
        expectedHookId: stocktakeItems.expectedHookId,
        foundHookId: stocktakeItems.foundHookId,
      })
      .from(stocktakeItems)
      .where(item)
    if (current) {
      if (input.late) {
        if (current.state === 'FOUND' || current.state === 'MISPLACED')
          return { outcome: 'REPEATED', keychainId }
        const home = input.hookId === null || input.hookId === current.expectedHookId
        return { outcome: home ? 'FOUND' : 'MISPLACED', keychainId }
      }
      const onHook = sql<StocktakeItemState>`case when ${input.hookId}::uuid is null
        or ${stocktakeItems.expectedHookId} = ${input.hookId}::uuid then 'FOUND' else 'MISPLACED' end`
      const [changed] = await tx
        .update(stocktakeItems)
        .set({ state: onHook, foundHookId: input.hookId, foundAt: input.now, foundById: input.userId })
        .where(and(item, eq(stocktakeItems.state, 'PENDING')))
        .returning({ state: stocktakeItems.state })
      if (changed) return { outcome: changed.state as StocktakeScanOutcome, keychainId }
      // Seen already: counted once. Seen again on another hook, it is where it was seen last.
      if (input.hookId !== null) {
        await tx
          .update(stocktakeItems)
          .set({ state: onHook, foundHookId: input.hookId, foundAt: input.now, foundById: input.userId })
          .where(
            and(
              item,
              inArray(stocktakeItems.state, ['FOUND', 'MISPLACED']),
              sql`${stocktakeItems.foundHookId} is distinct from ${input.hookId}::uuid`,
            ),
          )
      }
      return { outcome: 'REPEATED', keychainId }
    }
  }
  const [seen] = await tx
    .select({ id: stocktakeScans.id })
    .from(stocktakeScans)
    .where(
      and(
        eq(stocktakeScans.stocktakeId, input.stocktakeId),
        eq(stocktakeScans.late, false),
        inArray(stocktakeScans.outcome, [...UNEXPECTED_OUTCOMES]),
        keychainId
          ? eq(stocktakeScans.keychainId, keychainId)
          : and(sql`${stocktakeScans.keychainId} is null`, eq(stocktakeScans.value, input.value)),
      ),
    )
    .limit(1)
  if (seen) return { outcome: 'REPEATED', keychainId }
  return { outcome: keychainId ? 'UNEXPECTED' : 'UNKNOWN', keychainId }
}
