import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Device } from '../../../contract/devices.ts'
import { DEVICE_KEY_LIFETIME_MS } from '../../../contract/handover-check.ts'
import { fingerprintOf } from '../../../contract/handover-codes.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { makeDevice } from '../../../tests/server/handovers.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { deviceKeys } from '../../db/schema.ts'
import { createApiToken } from '../api-tokens/service.ts'
import { ACTIVE_DEVICES_MAX } from './service.ts'

const t = setupTestAppAtEpoch()

const register = async (cookie: string, device: { id: string; publicKey: string }, name = 'Phone') =>
  t.post('/api/devices', { cookie, json: { id: device.id, publicKey: device.publicKey, name } })

const listOf = async (cookie: string) =>
  ((await (await t.get('/api/devices', { cookie })).json()) as { data: Device[] }).data

describe('POST /api/devices', () => {
  it('registers a device for 180 days with its fingerprint, no organization needed', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const made = await makeDevice(profile)
    const response = await register(cookie, made, '  Pixel 8 ')
    expect(response.status).toBe(201)
    const now = t.clock.now()
    expect(await response.json()).toEqual({
      id: made.id,
      name: 'Pixel 8',
      fingerprint: await fingerprintOf(made.publicKey),
      registeredAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + DEVICE_KEY_LIFETIME_MS).toISOString(),
      revokedAt: null,
      lastHandoverAt: null,
    })
    expect((await fingerprintOf(made.publicKey)).length).toBe(8)
  })

  it('answers the same id, key and person again as the device is (200), even revoked; anything else is 409', async () => {
    const one = await t.signIn(uniqueEmail())
    const two = await t.signIn(uniqueEmail())
    const made = await makeDevice(one.profile)
    const first = await (await register(one.cookie, made)).json()
    t.clock.advance(DAY)
    const again = await register(one.cookie, made, 'Another name')
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual(first)

    const other = await makeDevice(one.profile)
    const anotherKey = await register(one.cookie, { id: made.id, publicKey: other.publicKey })
    const taken = {
      code: 'conflict',
      message: 'This device id is registered with another key: make a new key pair.',
    }
    expect(anotherKey.status).toBe(409)
    expect((await anotherKey.json()).error).toEqual(taken)
    const anotherPerson = await register(two.cookie, made)
    expect(anotherPerson.status).toBe(409)
    expect((await anotherPerson.json()).error).toEqual(taken)
    expect(await listOf(two.cookie)).toEqual([])

    expect((await t.delete(`/api/devices/${made.id}`, { cookie: one.cookie })).status).toBe(204)
    const revoked = await register(one.cookie, made)
    expect(revoked.status).toBe(200)
    expect((await revoked.json()).revokedAt).toBe(t.clock.now().toISOString())
  })

  it(`keeps a person to ${ACTIVE_DEVICES_MAX} active devices: a revoked or expired one makes room`, async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const devices = await Promise.all(Array.from({ length: ACTIVE_DEVICES_MAX }, () => makeDevice(profile)))
    for (const device of devices) expect((await register(cookie, device)).status).toBe(201)
    const extra = await makeDevice(profile)
    const refused = await register(cookie, extra)
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      error: {
        code: 'conflict',
        message: `You already have ${ACTIVE_DEVICES_MAX} devices that can hand keychains over: revoke one in your profile first.`,
      },
    })
    // The same registration of a known device is still answered.
    expect((await register(cookie, devices[3]!)).status).toBe(200)
    await t.delete(`/api/devices/${devices[0]!.id}`, { cookie })
    expect((await register(cookie, extra)).status).toBe(201)
    expect((await register(cookie, await makeDevice(profile))).status).toBe(409)
    // Expired (a session does not last the key's 180 days: the key is made older instead).
    await t.db.update(deviceKeys).set({ expiresAt: t.clock.now() }).where(eq(deviceKeys.id, devices[1]!.id))
    expect((await register(cookie, await makeDevice(profile))).status).toBe(201)
  })

  it('refuses a malformed key or id, no name, an unknown field (400)', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const made = await makeDevice(profile)
    for (const json of [
      { id: made.id, publicKey: made.publicKey.slice(1), name: 'P' },
      { id: made.id, publicKey: `${made.publicKey.slice(1)}+`, name: 'P' },
      { id: 'phone-1', publicKey: made.publicKey, name: 'P' },
      { id: made.id, publicKey: made.publicKey, name: ' ' },
      { id: made.id, publicKey: made.publicKey, name: 'x'.repeat(81) },
      { id: made.id, publicKey: made.publicKey, name: 'P', userId: profile.id },
    ]) {
      const response = await t.post('/api/devices', { cookie, json })
      expect(response.status, JSON.stringify(json)).toBe(400)
    }
    expect(await listOf(cookie)).toEqual([])
  })

  it('takes a session, never an API token (403), and no one signed out (401)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const made = await makeDevice(admin)
    const { token } = await createApiToken(t.deps, {
      kind: 'personal',
      creator: { id: admin.id, email: admin.email, firstName: '', lastName: '' },
      name: 'Script',
      expiresAt: null,
    })
    const bearer = { authorization: `Bearer ${token}` }
    const json = { id: made.id, publicKey: made.publicKey, name: 'P' }
    expect((await t.post('/api/devices', { headers: bearer, json })).status).toBe(403)
    expect((await t.get('/api/devices', { headers: bearer })).status).toBe(403)
    expect((await t.post('/api/devices', { json })).status).toBe(401)
    expect(organization.id).toBeDefined()
  })
})

describe('GET /api/devices', () => {
  it('lists my devices only, newest first, revoked and expired ones included', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    const other = await t.signIn(uniqueEmail())
    const older = await makeDevice(profile)
    await register(cookie, older, 'Old phone')
    t.clock.advance(DAY)
    const newer = await makeDevice(profile)
    await register(cookie, newer, 'New phone')
    await register(other.cookie, await makeDevice(other.profile), 'Not mine')
    await t.delete(`/api/devices/${older.id}`, { cookie })
    await t.db.update(deviceKeys).set({ expiresAt: t.clock.now() }).where(eq(deviceKeys.id, older.id))
    const listed = await listOf(cookie)
    expect(listed.map((device) => device.name)).toEqual(['New phone', 'Old phone'])
    expect(listed[1]!.revokedAt).not.toBeNull()
    expect(listed[0]!.revokedAt).toBeNull()
  })
})

describe('DELETE /api/devices/{id}', () => {
  it('revokes my device once (the first time stays); another person’s or an unknown one is a 404', async () => {
    const { organization } = await organizationWithAdmin(t)
    const me = await signedInMember(t, organization.id, 'MEMBER')
    const colleague = await signedInMember(t, organization.id, 'ADMIN')
    const mine = await makeDevice(me)
    const theirs = await makeDevice(colleague)
    await register(me.cookie, mine)
    await register(colleague.cookie, theirs)
    const revokedAt = t.clock.now().toISOString()
    expect((await t.delete(`/api/devices/${mine.id}`, { cookie: me.cookie })).status).toBe(204)
    t.clock.advance(DAY)
    expect((await t.delete(`/api/devices/${mine.id}`, { cookie: me.cookie })).status).toBe(204)
    expect((await listOf(me.cookie))[0]!.revokedAt).toBe(revokedAt)

    const foreign = await t.delete(`/api/devices/${theirs.id}`, { cookie: me.cookie })
    expect(foreign.status).toBe(404)
    expect((await foreign.json()).error).toEqual({ code: 'not_found', message: 'No such device.' })
    expect((await listOf(colleague.cookie))[0]!.revokedAt).toBeNull()
    const unknown = await t.delete(`/api/devices/${(await makeDevice(me)).id}`, { cookie: me.cookie })
    expect(unknown.status).toBe(404)
    expect((await t.delete('/api/devices/not-a-uuid', { cookie: me.cookie })).status).toBe(400)
  })
})
