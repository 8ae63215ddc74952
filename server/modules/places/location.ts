import { and, eq, isNull } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import { type HookScanResult, type KeychainLocation, parseLocationLabel } from '../../../contract/places.ts'
import type { Db } from '../../db/client.ts'
import { hooks, keychains, users } from '../../db/schema.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { toPerson } from '../../shared/person.ts'
import { hookRefs, whereabouts } from '../../shared/places.ts'
import { appendEvent } from '../events/append.ts'

const locationColumns = {
  id: keychains.id,
  custodianId: keychains.custodianId,
  transferStatus: keychains.transferStatus,
  homeHookId: keychains.homeHookId,
  hookId: keychains.hookId,
  hookSeenAt: keychains.hookSeenAt,
  hookSeenById: keychains.hookSeenById,
}
type LocationRow = { [K in keyof typeof locationColumns]: (typeof keychains.$inferSelect)[K] }

/** The organization's keychain (not deleted; locked with `lock`), as much as its location needs; else 404. */
async function locationRow(
  db: Db,
  organizationId: string,
  id: string,
  options: { lock?: boolean } = {},
): Promise<LocationRow> {
  const query = db
    .select(locationColumns)
    .from(keychains)
    .where(
      and(eq(keychains.organizationId, organizationId), eq(keychains.id, id), isNull(keychains.deletedAt)),
    )
  const [row] = options.lock ? await query.for('update') : await query
  if (!row) throw notFound('No such keychain.')
  return row
}

async function toLocation(db: Db, organizationId: string, row: LocationRow): Promise<KeychainLocation> {
  const held = whereabouts(row) === 'HELD'
  const seen = !held && row.hookId ? row.hookId : null
  const refs = await hookRefs(
    db,
    organizationId,
    // Stryker disable next-line MethodExpression,ConditionalExpression: a null id matches no hook either
    [row.homeHookId, seen].filter((id) => id !== null),
  )
  const [by] =
    // Stryker disable next-line ConditionalExpression,LogicalOperator: who saw it is cleared with the hook when someone takes it
    seen && row.hookSeenById ? await db.select().from(users).where(eq(users.id, row.hookSeenById)) : []
  return {
    whereabouts: whereabouts(row),
    home: (row.homeHookId && refs.get(row.homeHookId)) || null,
    seenOn: (seen && refs.get(seen)) || null,
    // Stryker disable next-line OptionalChaining: the hook and the time it was seen are written together
    seenAt: seen ? (row.hookSeenAt?.toISOString() ?? null) : null,
    seenBy: by ? toPerson(by) : null,
  }
}

/** `GET /keychains/{id}/location`. */
export async function keychainLocation(
  db: Db,
  organizationId: string,
  id: string,
): Promise<KeychainLocation> {
  return toLocation(db, organizationId, await locationRow(db, organizationId, id))
}

/** A hook of the organization by id (404 for any other), locked against its removal meanwhile. */
async function hookOf(db: Db, organizationId: string, hookId: string) {
  const [hook] = await db
    .select({ id: hooks.id, code: hooks.code })
    .from(hooks)
    .where(and(eq(hooks.organizationId, organizationId), eq(hooks.id, hookId)))
    .for('share')
  if (!hook) throw notFound('No such hook.')
  return hook
}

/** `PUT /keychains/{id}/home`: sets, changes or clears its home hook (`keychain.home_changed`). */
export async function setKeychainHome(
  db: Db,
  input: { organizationId: string; actorId: string; id: string; hookId: string | null; now: Date },
): Promise<KeychainLocation> {
  const { organizationId, now } = input
  return db.transaction(async (tx) => {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the row lock only orders concurrent writers (no single-request test sees it)
    const row = await locationRow(tx, organizationId, input.id, { lock: true })
    if (input.hookId) await hookOf(tx, organizationId, input.hookId)
    if (row.homeHookId === input.hookId) return toLocation(tx, organizationId, row)
    await tx
      .update(keychains)
      .set({ homeHookId: input.hookId, updatedAt: now })
      .where(eq(keychains.id, row.id))
    const location = await toLocation(tx, organizationId, { ...row, homeHookId: input.hookId })
    await appendEvent(tx, {
      organizationId,
      kind: 'keychain.home_changed',
      actorId: input.actorId,
      serverTime: now,
      keychainIds: [row.id],
      payload: { home: { from: row.homeHookId, to: input.hookId } },
    })
    return location
  })
}

export type HookScanInput = {
  organizationId: string
  actorId: string
  keychainId: string
  value: string
  makeHome: boolean
  clientTime: Date | null
  fromQueue: boolean
  now: Date
}

/**
 * `POST /keychains/{id}/hook-scans`, inside the idempotent transaction: the keychain, returned, goes on the hook
 * whose label was scanned. Its home: HOME; another hook: MISPLACED (it is recorded there); with `makeHome` (the
 * caller may update keychains: checked by the route) that hook becomes its home: NEW_HOME. Refused while
 * someone holds it (409 `keychain_held`); a value that is no hook label of the organization is a 400.
 */
export async function hangKeychain(tx: Db, input: HookScanInput): Promise<HookScanResult> {
  const { organizationId, now } = input
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: the row lock only orders concurrent writers (no single-request test sees it)
  const row = await locationRow(tx, organizationId, input.keychainId, { lock: true })
  const label = parseLocationLabel(input.value)
  const [hook] =
    label?.kind === 'hook'
      ? await tx
          .select({ id: hooks.id, code: hooks.code })
          .from(hooks)
          .where(and(eq(hooks.organizationId, organizationId), eq(hooks.publicId, label.publicId)))
          .for('share')
      : []
  if (!hook)
    throw new ApiError(
      400,
      ErrorCode.notAHookLabel,
      label?.kind === 'place'
        ? 'This is the label of a board or cabinet: scan the label of the hook itself.'
        : 'This is not the label of one of the organization’s hooks.',
    )
  if (whereabouts(row) === 'HELD')
    throw new ApiError(
      409,
      ErrorCode.keychainHeld,
      'Someone holds this keychain: it goes on a hook once it has been returned.',
    )
  const outcome: HookScanResult['outcome'] =
    hook.id === row.homeHookId ? 'HOME' : input.makeHome ? 'NEW_HOME' : 'MISPLACED'
  const homeHookId = outcome === 'NEW_HOME' ? hook.id : row.homeHookId
  const hung = { homeHookId, hookId: hook.id, hookSeenAt: now, hookSeenById: input.actorId }
  await tx
    .update(keychains)
    .set({ ...hung, updatedAt: now })
    .where(eq(keychains.id, row.id))
  const location = await toLocation(tx, organizationId, { ...row, ...hung })
  await appendEvent(tx, {
    organizationId,
    kind: 'keychain.hung',
    actorId: input.actorId,
    serverTime: now,
    clientTime: input.clientTime,
    fromQueue: input.fromQueue,
    keychainIds: [row.id],
    payload: {
      hookId: hook.id,
      code: hook.code,
      outcome,
      ...(outcome === 'NEW_HOME' ? { home: { from: row.homeHookId, to: hook.id } } : {}),
    },
  })
  return { outcome, location }
}
