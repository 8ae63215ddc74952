import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { Device } from '../../contract/devices.ts'
import { DEVICE_KEY_LIFETIME_MS } from '../../contract/handover-check.ts'
import { fingerprintOf } from '../../contract/handover-codes.ts'
import { deviceKeys, users } from '../../server/db/schema.ts'
import { submitHandover } from '../../server/modules/handovers/submit.ts'
import { makeDevice, type PairInput, signPair, type TestDevice } from '../handover-devices.ts'
import { addMember, makeKeychain, organizationWithAdmin, signedInMember } from './fixtures.ts'
import { type TestApp, uniqueEmail } from './harness.ts'

export { makeDevice, type TestDevice }

/** A new device of the signed-in person, registered through `POST /api/devices` at the test clock's now. */
export async function registeredDevice(
  t: TestApp,
  person: { id: string; cookie: string },
  name = 'Phone',
): Promise<TestDevice & { device: Device }> {
  const made = await makeDevice(person)
  const response = await t.post('/api/devices', {
    cookie: person.cookie,
    json: { id: made.id, publicKey: made.publicKey, name },
  })
  expect(response.status, await response.clone().text()).toBe(201)
  return { ...made, device: (await response.json()) as Device }
}

/** A signed pair as two phones make it, the giver's device time the test clock's now unless told. */
export const signedPair = (t: TestApp, input: Omit<PairInput, 'at'> & { at?: number }) =>
  signPair({ ...input, at: input.at ?? t.clock.now().getTime() })

/** `POST /api/handovers` of a pair, sent by `sender`. */
export const submitPair = (
  t: TestApp,
  sender: { cookie: string },
  pair: { offer: string; acceptance: string },
) =>
  t.post('/api/handovers', {
    cookie: sender.cookie,
    json: { offer: pair.offer, acceptance: pair.acceptance },
  })

/** The 409 `handover_refused` reason of an answer (fails on any other answer). */
export async function refusalOf(response: Response): Promise<string> {
  const body = await response.clone().json()
  expect(response.status, JSON.stringify(body)).toBe(409)
  expect(body.error.code).toBe('handover_refused')
  return body.error.reason
}

/**
 * An organization ("Relève") with its ADMIN, a MANAGER, two MEMBERs named (the night guard gives, the morning
 * guard receives), a CONTACT, the keychain "Master set" held by the giver (no custody entry yet: base 0), and a
 * registered phone for the giver and the receiver.
 */
export async function handoverWorld(t: TestApp) {
  const { organization, admin } = await organizationWithAdmin(t, 'Relève')
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const giver = await signedInMember(t, organization.id, 'MEMBER')
  const receiver = await signedInMember(t, organization.id, 'MEMBER')
  const contact = await signedInMember(t, organization.id, 'CONTACT')
  await t.db.update(users).set({ firstName: 'Nadia', lastName: 'Night' }).where(eq(users.id, giver.id))
  await t.db.update(users).set({ firstName: 'Marc', lastName: 'Morning' }).where(eq(users.id, receiver.id))
  const keychain = await makeKeychain(t, organization.id, 'Master set', giver.id)
  const giverPhone = await registeredDevice(t, giver, 'Night phone')
  const receiverPhone = await registeredDevice(t, receiver, 'Morning phone')
  return { organization, admin, manager, giver, receiver, contact, keychain, giverPhone, receiverPhone }
}

/** A new device of `userId` registered directly (no request, no session needed), valid from the test clock's now. */
export async function storedDevice(t: TestApp, userId: string): Promise<TestDevice> {
  const made = await makeDevice({ id: userId })
  const now = t.clock.now()
  await t.db.insert(deviceKeys).values({
    id: made.id,
    userId,
    name: 'Phone',
    publicKey: made.publicKey,
    fingerprint: await fingerprintOf(made.publicKey),
    registeredAt: now,
    expiresAt: new Date(now.getTime() + DEVICE_KEY_LIFETIME_MS),
  })
  return made
}

/**
 * A handover applied in the organization (through the service, no request): a new keychain held by `giverId`,
 * handed to a new ACTIVE member. Gives the pair, to send again or to read.
 */
export async function appliedHandover(t: TestApp, organizationId: string, giverId: string) {
  const [receiver] = await t.db
    .insert(users)
    .values({ email: uniqueEmail('receiver'), createdAt: t.clock.now(), lastSeenAt: t.clock.now() })
    .returning()
  await addMember(t, { userId: receiver!.id, organizationId, role: 'MEMBER', select: false })
  const keychain = await makeKeychain(t, organizationId, 'Handed', giverId)
  const pair = await signedPair(t, {
    organizationId,
    keychainId: keychain.id,
    giver: await storedDevice(t, giverId),
    receiver: await storedDevice(t, receiver!.id),
  })
  const { handover } = await submitHandover(t.deps, {
    organizationId,
    callerId: giverId,
    offer: pair.offer,
    acceptance: pair.acceptance,
  })
  expect(handover.status).toBe('APPLIED')
  return pair
}
