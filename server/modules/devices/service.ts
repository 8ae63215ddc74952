import { and, desc, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm'
import type { Device, DeviceRegistration } from '../../../contract/devices.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { DeviceKeyRecord } from '../../../contract/handover-check.ts'
import { DEVICE_KEY_LIFETIME_MS } from '../../../contract/handover-check.ts'
import { fingerprintOf } from '../../../contract/handover-codes.ts'
import type { MirroredDeviceKey } from '../../../contract/sync.ts'
import type { Db } from '../../db/client.ts'
import { type DeviceKeyRow, deviceKeys, handovers, memberships, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { toPerson } from '../../shared/person.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>

/** Devices a person may have signing at once (not revoked, not expired): a phone, a tablet, a few browsers. */
export const ACTIVE_DEVICES_MAX = 20
/** A revoked key stays in the organization's mirror this long, so the phone it was on learns it and stops signing. */
export const REVOKED_KEYS_MIRRORED_MS = 30 * 24 * 60 * 60 * 1000

/** The last applied handover the device signed, as giver or receiver (its device time). Qualified by hand: a
 * one-table select names its columns bare, and `id` would be the handover's here. */
const lastHandoverAt = sql<Date | null>`greatest(
  (select max(h.offered_at) from handovers h where h.giver_device_id = device_keys.id and h.status = 'APPLIED'),
  (select max(h.offered_at) from handovers h where h.receiver_device_id = device_keys.id and h.status = 'APPLIED')
)`.mapWith(handovers.offeredAt)

function toDevice(row: DeviceKeyRow, last: Date | null): Device {
  return {
    id: row.id,
    name: row.name,
    fingerprint: row.fingerprint,
    registeredAt: row.registeredAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
    lastHandoverAt: last?.toISOString() ?? null,
  }
}

async function devicesWhere(db: Db, where: SQL | undefined): Promise<Device[]> {
  const rows = await db
    .select({ device: deviceKeys, lastHandoverAt })
    .from(deviceKeys)
    .where(where)
    .orderBy(desc(deviceKeys.registeredAt), desc(deviceKeys.id))
  return rows.map((row) => toDevice(row.device, row.lastHandoverAt))
}

/** `GET /devices`: the caller's devices, revoked and expired ones included, newest first. */
export const listDevices = (db: Db, userId: string) => devicesWhere(db, eq(deviceKeys.userId, userId))

const idTaken = () =>
  new ApiError(409, ErrorCode.conflict, 'This device id is registered with another key: make a new key pair.')

/**
 * `POST /devices`: the device's id and public key, registered to the caller for `DEVICE_KEY_LIFETIME_MS`. The same
 * id, key and person again answer the device as it is (`created: false`); the id with another key or person is a
 * 409. The person's row is locked, so two registrations at once count each other against `ACTIVE_DEVICES_MAX`.
 */
export async function registerDevice(
  deps: Deps,
  userId: string,
  registration: DeviceRegistration,
): Promise<{ device: Device; created: boolean }> {
  const now = deps.clock.now()
  const fingerprint = await fingerprintOf(registration.publicKey)
  return deps.database.db.transaction(async (tx) => {
    // Stryker disable next-line ObjectLiteral: a lock; which columns it reads does not matter
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
    const [known] = await devicesOf(tx, [registration.id])
    if (known) {
      if (known.userId !== userId || known.publicKey !== registration.publicKey) throw idTaken()
      const [device] = await devicesWhere(tx, eq(deviceKeys.id, known.id))
      return { device: device!, created: false }
    }
    const active = await tx.$count(
      deviceKeys,
      and(eq(deviceKeys.userId, userId), isNull(deviceKeys.revokedAt), gt(deviceKeys.expiresAt, now)),
    )
    if (active >= ACTIVE_DEVICES_MAX) {
      throw new ApiError(
        409,
        ErrorCode.conflict,
        `You already have ${ACTIVE_DEVICES_MAX} devices that can hand keychains over: revoke one in your profile first.`,
      )
    }
    const [row] = await tx
      .insert(deviceKeys)
      .values({
        id: registration.id,
        userId,
        name: registration.name,
        publicKey: registration.publicKey,
        fingerprint,
        registeredAt: now,
        expiresAt: new Date(now.getTime() + DEVICE_KEY_LIFETIME_MS),
      })
      // Another person registering the same id at this very moment (not locked by this person's row).
      .onConflictDoNothing({ target: deviceKeys.id })
      .returning()
    if (!row) throw idTaken()
    return { device: toDevice(row, null), created: true }
  })
}

/**
 * `DELETE /devices/{id}`: the caller's device stops signing from now (what it signed before still holds). Another
 * person's device, or an unknown id, is a 404; revoking twice keeps the first time.
 */
export async function revokeDevice(deps: Deps, userId: string, id: string): Promise<void> {
  const [row] = await deps.database.db
    .update(deviceKeys)
    .set({
      revokedAt: sql`coalesce(${deviceKeys.revokedAt}, ${deps.clock.now().toISOString()}::timestamptz)`,
    })
    .where(and(eq(deviceKeys.id, id), eq(deviceKeys.userId, userId)))
    .returning({ id: deviceKeys.id })
  if (!row) throw notFound('No such device.')
}

/** Device keys by id (the devices an offer names), as the handover rules read them. */
export async function devicesOf(db: Db, ids: string[]): Promise<DeviceKeyRow[]> {
  // Stryker disable next-line ConditionalExpression,ArrayDeclaration: spares a statement; inArray of none finds none
  if (ids.length === 0) return []
  return db.select().from(deviceKeys).where(inArray(deviceKeys.id, ids))
}

export const toKeyRecord = (row: DeviceKeyRow): DeviceKeyRecord => ({
  id: row.id,
  userId: row.userId,
  publicKey: row.publicKey,
  expiresAt: row.expiresAt.toISOString(),
  revokedAt: row.revokedAt?.toISOString() ?? null,
})

/**
 * The keys an organization's field mirror carries: those of its ACTIVE members (every role), not expired, not
 * revoked or revoked within `REVOKED_KEYS_MIRRORED_MS` (so the phone it was on learns it). One statement.
 */
export async function mirroredDeviceKeys(
  db: Db,
  organizationId: string,
  now: Date,
): Promise<MirroredDeviceKey[]> {
  const rows = await db
    .select({ device: deviceKeys, person: users })
    .from(deviceKeys)
    .innerJoin(
      memberships,
      and(
        eq(memberships.userId, deviceKeys.userId),
        eq(memberships.organizationId, organizationId),
        eq(memberships.status, 'ACTIVE'),
      ),
    )
    .innerJoin(users, eq(users.id, deviceKeys.userId))
    .where(
      and(
        gt(deviceKeys.expiresAt, now),
        or(
          isNull(deviceKeys.revokedAt),
          gt(deviceKeys.revokedAt, new Date(now.getTime() - REVOKED_KEYS_MIRRORED_MS)),
        ),
      ),
    )
    .orderBy(deviceKeys.id)
  return rows.map(({ device, person }) => ({
    id: device.id,
    userId: device.userId,
    person: toPerson(person),
    publicKey: device.publicKey,
    fingerprint: device.fingerprint,
    expiresAt: device.expiresAt.toISOString(),
    revokedAt: device.revokedAt?.toISOString() ?? null,
  }))
}
