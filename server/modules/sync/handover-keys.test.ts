import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { SyncPage } from '../../../contract/sync.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { createOrganization, makeKeychain, signedInMember } from '../../../tests/server/fixtures.ts'
import { handoverWorld, registeredDevice, signedPair, submitPair } from '../../../tests/server/handovers.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { custodyLog, deviceKeys } from '../../db/schema.ts'
import { REVOKED_KEYS_MIRRORED_MS } from '../devices/service.ts'

const t = setupTestAppAtEpoch()

/** Every page of the feed from `cursor` until it says there is no more. */
async function pages(cookie: string, cursor?: string): Promise<SyncPage[]> {
  const read: SyncPage[] = []
  for (let more = true; more; ) {
    const query = cursor ? `?cursor=${encodeURIComponent(cursor)}&limit=2` : '?limit=2'
    const response = await t.get(`/api/sync/changes${query}`, { cookie })
    expect(response.status).toBe(200)
    const page = (await response.json()) as SyncPage
    read.push(page)
    cursor = page.cursor
    more = page.more
  }
  return read
}

describe('the device keys in the feed', () => {
  it('are the active members’ keys, on every page, with their person: a contact’s too, a revoked one for 30 days', async () => {
    const w = await handoverWorld(t)
    const contactPhone = await registeredDevice(t, w.contact)
    const former = await signedInMember(t, w.organization.id, 'MEMBER', { status: 'DISABLED' })
    await registeredDevice(t, former)
    const stranger = await signedInMember(t, (await createOrganization(t, 'Elsewhere')).id, 'MEMBER')
    await registeredDevice(t, stranger)
    const expired = await registeredDevice(t, w.manager, 'Old tablet')
    await t.db.update(deviceKeys).set({ expiresAt: t.clock.now() }).where(eq(deviceKeys.id, expired.id))
    await makeKeychain(t, w.organization.id, 'Second')
    await makeKeychain(t, w.organization.id, 'Third')

    const read = await pages(w.contact.cookie)
    expect(read.length).toBeGreaterThan(1)
    const expected = [w.giverPhone, w.receiverPhone, contactPhone]
      .map((phone) => ({
        id: phone.id,
        userId: phone.userId,
        person: expect.objectContaining({ id: phone.userId }),
        publicKey: phone.publicKey,
        fingerprint: phone.device.fingerprint,
        expiresAt: phone.device.expiresAt,
        revokedAt: null,
      }))
      .sort((a, b) => a.id.localeCompare(b.id))
    for (const page of read) expect(page.deviceKeys).toEqual(expected)
    expect(read[0]!.deviceKeys.find((key) => key.userId === w.giver.id)!.person).toEqual({
      id: w.giver.id,
      email: w.giver.email,
      firstName: 'Nadia',
      lastName: 'Night',
    })

    // Revoked: still carried (the phone learns it) for 30 days, then no more.
    expect(REVOKED_KEYS_MIRRORED_MS).toBe(30 * DAY)
    await t.delete(`/api/devices/${w.giverPhone.id}`, { cookie: w.giver.cookie })
    const revokedAt = t.clock.now().toISOString()
    const after = await pages(w.manager.cookie, read.at(-1)!.cursor)
    expect(after.at(-1)!.deviceKeys.find((key) => key.id === w.giverPhone.id)?.revokedAt).toBe(revokedAt)
    t.clock.advance(REVOKED_KEYS_MIRRORED_MS - 1)
    // A month on, a fresh session.
    const { cookie } = await t.signIn(w.admin.email)
    const lastDay = await pages(cookie)
    expect(lastDay[0]!.deviceKeys.map((key) => key.id)).toContain(w.giverPhone.id)
    t.clock.advance(1)
    const later = await pages(cookie)
    expect(later[0]!.deviceKeys.map((key) => key.id)).not.toContain(w.giverPhone.id)
    expect(later[0]!.deviceKeys).toHaveLength(2)
  })
})

describe('the custody sequence of mirrored keychains', () => {
  it('is 0 before any change, then the number of the last one: a handover’s base', async () => {
    const w = await handoverWorld(t)
    const [first] = await pages(w.giver.cookie)
    const snapshot = (await pages(w.giver.cookie)).flatMap((page) => page.keychains)
    expect(snapshot.find((keychain) => keychain.id === w.keychain.id)?.custodySeq).toBe(0)
    const pair = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
    })
    expect((await submitPair(t, w.receiver, pair)).status).toBe(201)
    const [change] = await t.db
      .select()
      .from(custodyLog)
      .where(eq(custodyLog.keychainId, w.keychain.id))
      .orderBy(asc(custodyLog.seq))
    const changes = await pages(w.giver.cookie, first!.cursor)
    const moved = changes.flatMap((page) => page.keychains).find((keychain) => keychain.id === w.keychain.id)
    expect(moved).toMatchObject({ custodian: { id: w.receiver.id }, custodySeq: change!.seq })
    t.clock.advance(DAY)
    const again = (await pages(w.receiver.cookie)).flatMap((page) => page.keychains)
    expect(again.find((keychain) => keychain.id === w.keychain.id)?.custodySeq).toBe(change!.seq)
  })
})
