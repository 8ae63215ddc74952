import type { Device } from '../../contract/devices.ts'
import { deviceEndpoints } from '../../contract/endpoints/handovers.ts'
import { profileEndpoints } from '../../contract/endpoints/profile.ts'
import { DEVICE_KEY_ALGORITHM, exportPublicKey, fingerprintOf } from '../../contract/handover-codes.ts'
import type { MirroredDeviceKey } from '../../contract/sync.ts'
import { call } from '../lib/call.ts'
import { type DeviceKeyRow, type TrousseauDb, withDb } from './db.ts'

/** This device's identity for a user: what a receive code names and colleagues' phones check signatures with. */
export type DeviceIdentity = {
  deviceId: string
  publicKey: string
  fingerprint: string
  /** The server has it (colleagues' phones learn it at their next sync). */
  registered: boolean
  /** The key before this one was revoked, and this one is not registered yet. */
  revoked: boolean
}

/** Online, a key this close to its expiry is replaced by a new one. */
export const DEVICE_KEY_RENEWAL_MS = 14 * 24 * 60 * 60 * 1000

/** A registration that has not answered by then is tried again later (at the next start or sync). */
const REGISTER_TIMEOUT_MS = 8000

const noNetwork = () => navigator.onLine === false

const BROWSERS: readonly [RegExp, string][] = [
  [/EdgA?\/|EdgiOS\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\/|Opera/, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
]
const SYSTEMS: readonly [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Macintosh|Mac OS X/, 'macOS'],
  [/Linux/, 'Linux'],
]

/** A name a person recognizes their phone by in the profile's list ("Chrome · Android"). */
export function deviceName(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Browser'
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1]
  return system ? `${browser} · ${system}` : browser
}

async function newKey(userId: string): Promise<DeviceKeyRow> {
  const pair = (await crypto.subtle.generateKey(DEVICE_KEY_ALGORITHM, false, [
    'sign',
    'verify',
  ])) as CryptoKeyPair
  const publicKey = await exportPublicKey(pair.publicKey)
  return {
    userId,
    deviceId: crypto.randomUUID(),
    publicKey,
    fingerprint: await fingerprintOf(publicKey),
    privateKey: pair.privateKey,
    createdAt: new Date().toISOString(),
    registeredAt: null,
    expiresAt: null,
  }
}

/** The user's key on this device; a new one when there is none or it was revoked (another tab's wins a race). */
async function keptOrNewKey(userId: string): Promise<DeviceKeyRow> {
  const kept = await withDb((db) => db.deviceKeyPairs.get(userId))
  if (kept?.privateKey) return kept
  // A kept key without its private half was revoked: the new one says so until it is registered.
  const made = { ...(await newKey(userId)), ...(kept ? { replacesRevoked: true as const } : {}) }
  return withDb((db) =>
    db.transaction('rw', db.deviceKeyPairs, async () => {
      const current = await db.deviceKeyPairs.get(userId)
      if (current?.privateKey) return current
      await db.deviceKeyPairs.put(made)
      return made
    }),
  )
}

/** `POST /devices` for `key`, with the session of its user only (another tab may have signed someone else in). */
async function register(key: DeviceKeyRow): Promise<Device | null> {
  const signal = AbortSignal.timeout(REGISTER_TIMEOUT_MS)
  const session = await call(profileEndpoints.one, { signal })
  if (session.id !== key.userId) return null
  const name = deviceName(navigator.userAgent)
  return call(deviceEndpoints.register, {
    body: { id: key.deviceId, publicKey: key.publicKey, name },
    signal,
  })
}

/**
 * Keeps `key` as the server registered it, in place of the key `replacing` (itself, or the one it renews),
 * unless another tab moved on meanwhile. A key the server says is revoked loses its private half.
 */
async function keepRegistered(key: DeviceKeyRow, device: Device, replacing: string): Promise<void> {
  await withDb((db) =>
    db.transaction('rw', db.deviceKeyPairs, async () => {
      const current = await db.deviceKeyPairs.get(key.userId)
      if (current && current.deviceId !== replacing) return
      const { replacesRevoked: _shownUntilRegistered, ...rest } = key
      await db.deviceKeyPairs.put(
        device.revokedAt === null
          ? { ...rest, registeredAt: device.registeredAt, expiresAt: device.expiresAt }
          : { ...key, privateKey: null },
      )
    }),
  )
}

/** Registers a key the server does not have yet, or replaces one that expires soon by a new, registered one. */
async function registerWhenDue(key: DeviceKeyRow): Promise<void> {
  // The server's answer sets both dates: a key without them is not registered yet.
  if (key.expiresAt === null) {
    const device = await register(key)
    if (device) await keepRegistered(key, device, key.deviceId)
    return
  }
  if (Date.parse(key.expiresAt) - Date.now() > DEVICE_KEY_RENEWAL_MS) return
  // The old key signs until the new one is registered: a renewal that fails changes nothing.
  const renewed = await newKey(key.userId)
  const device = await register(renewed)
  if (device) await keepRegistered(renewed, device, key.deviceId)
}

const identityOf = (key: DeviceKeyRow): DeviceIdentity => ({
  deviceId: key.deviceId,
  publicKey: key.publicKey,
  fingerprint: key.fingerprint,
  registered: key.registeredAt !== null,
  revoked: key.replacesRevoked === true,
})

async function ensure(userId: string): Promise<DeviceIdentity> {
  if (!noNetwork()) {
    await registerWhenDue(await keptOrNewKey(userId)).catch((error: unknown) =>
      console.warn('Device key registration failed', error),
    )
  }
  // The key as registered, renewed, or made anew when the server answered that it was revoked.
  return identityOf(await keptOrNewKey(userId))
}

const ensuring = new Map<string, Promise<DeviceIdentity>>()

/**
 * This device's identity for a user, made on first call (an ECDSA P-256 key pair whose private half never leaves
 * IndexedDB) and registered with `POST /devices` when online; called on each app start and after each sync, it
 * registers a key not registered yet and renews one that expires within `DEVICE_KEY_RENEWAL_MS`.
 */
export function ensureDeviceKey(userId: string): Promise<DeviceIdentity> {
  let running = ensuring.get(userId)
  if (!running) {
    running = ensure(userId).finally(() => ensuring.delete(userId))
    ensuring.set(userId, running)
  }
  return running
}

/** The user's key that may sign now: registered, not expired, not revoked. */
export async function signingKey(
  db: TrousseauDb,
  userId: string,
  at: number,
): Promise<(DeviceKeyRow & { privateKey: CryptoKey }) | undefined> {
  const key = await db.deviceKeyPairs.get(userId)
  if (!key?.privateKey || key.expiresAt === null || Date.parse(key.expiresAt) <= at) return undefined
  return key as DeviceKeyRow & { privateKey: CryptoKey }
}

/**
 * The device keys of a sync page replace the mirrored ones (in the page's transaction). When they show this
 * device's key for `userId` revoked, its private half is dropped: a revoked device never signs, and
 * `ensureDeviceKey` makes a new key.
 */
export async function mirrorDeviceKeys(
  db: TrousseauDb,
  organizationId: string,
  keys: readonly MirroredDeviceKey[],
  userId: string,
): Promise<void> {
  await db.deviceKeys.clear()
  await db.deviceKeys.bulkPut(keys.map((key) => ({ ...key, organizationId })))
  const own = await db.deviceKeyPairs.get(userId)
  if (own && keys.some((key) => key.id === own.deviceId && key.revokedAt !== null))
    await db.deviceKeyPairs.put({ ...own, privateKey: null })
}

/** The person revoked `deviceId` (from the profile): if it is this device's key, it never signs again. */
export async function forgetRevokedDevice(deviceId: string): Promise<void> {
  await withDb((db) =>
    db.transaction('rw', db.deviceKeyPairs, async () => {
      const own = await db.deviceKeyPairs.filter((key) => key.deviceId === deviceId).toArray()
      await db.deviceKeyPairs.bulkPut(own.map((key) => ({ ...key, privateKey: null })))
    }),
  )
}
