import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { expectOneAnswerReplayed } from '../../../tests/server/idempotency.ts'
import { scans } from '../../db/schema.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t, 'Agence')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const [tagged, loose] = await makeTags(t, organization.id, 2, 'SCN')
  const keychain = await makeKeychain(t, organization.id, 'Cave', member.id)
  await t.post(`/api/keychains/${keychain.id}/keys`, {
    cookie: admin.cookie,
    json: { type: 'TAG', name: 'Porte', tagId: tagged!.id },
  })
  return { organization, admin, member, tagged: tagged!, loose: loose!, keychain }
}

const scan = (
  cookie: string,
  value: string,
  key: string = randomUUID(),
  headers: Record<string, string> = {},
) => t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': key, ...headers } })

describe('POST /api/scans', () => {
  it('resolves a tag URL, a public id and a code to the tag, key, keychain, custodian and actions', async () => {
    const { member, tagged, keychain } = await world()
    for (const value of [
      `https://elsewhere.example/en/tags/${tagged.publicId}`,
      tagged.publicId,
      tagged.code.toLowerCase(),
    ]) {
      const response = await scan(member.cookie, value)
      expect(response.status).toBe(201)
      expect(await response.json()).toMatchObject({
        status: 'resolved',
        tag: { id: tagged.id, code: tagged.code, url: `${t.config.publicUrl}/tags/${tagged.publicId}` },
        key: { name: 'Porte', type: 'TAG' },
        keychain: { id: keychain.id, name: 'Cave', custodian: { id: member.id } },
        actions: ['read__keychain', 'pickup__transfer'],
      })
    }
  })

  it('resolves an unused tag with no key or keychain; a MANAGER gets more actions', async () => {
    const { admin, loose } = await world()
    const body = await (await scan(admin.cookie, loose.code)).json()
    expect(body).toMatchObject({ status: 'resolved', key: null, keychain: null })
    expect(body.actions).toContain('update__keychain')
  })

  it("answers 'foreign' for another organization's tag (by URL or id, never by code) and 'unknown' otherwise", async () => {
    const { member } = await world()
    const other = await organizationWithAdmin(t, 'Other')
    const [theirs] = await makeTags(t, other.organization.id, 1, 'OTH')
    expect(await (await scan(member.cookie, theirs!.publicId)).json()).toMatchObject({
      status: 'foreign',
      publicId: theirs!.publicId,
    })
    for (const value of [theirs!.code, 'hello', 'abcdefghij234567klmn']) {
      expect(await (await scan(member.cookie, value)).json()).toMatchObject({ status: 'unknown', value })
    }
  })

  it('records who, where, what, the client time and the queue flag', async () => {
    const { organization, member, tagged } = await world()
    const response = await scan(member.cookie, tagged.code, randomUUID(), {
      'x-client-time': '2030-01-15T08:00:00.000Z',
      'x-from-queue': '1',
    })
    const { scanId } = await response.json()
    const [row] = await t.db.select().from(scans).where(eq(scans.id, scanId))
    expect(row).toMatchObject({
      userId: member.id,
      organizationId: organization.id,
      value: tagged.code,
      result: 'resolved',
      tagId: tagged.id,
      fromQueue: true,
    })
    expect(row!.clientTime?.toISOString()).toBe('2030-01-15T08:00:00.000Z')
    expect(row!.serverTime.toISOString()).toBe(t.clock.now().toISOString())
  })

  it('replays the same key and body five times with the same answer and one scan', async () => {
    const { member, tagged } = await world()
    const key = randomUUID()
    const answers = []
    for (let i = 0; i < 5; i += 1) {
      answers.push(await scan(member.cookie, tagged.code, key, i > 0 ? { 'x-from-queue': '1' } : {}))
      t.clock.advance(60_000)
    }
    await expectOneAnswerReplayed(answers)
    expect(await t.db.select().from(scans).where(eq(scans.userId, member.id))).toHaveLength(1)
  })

  it('runs the effect once when the same key arrives five times at once', async () => {
    const { member, tagged } = await world()
    const key = randomUUID()
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => scan(member.cookie, tagged.code, key)))
    expect(answers.map((response) => response.status)).toEqual([201, 201, 201, 201, 201])
    const bodies = await Promise.all(answers.map((response) => response.json()))
    for (const body of bodies) expect(body).toEqual(bodies[0])
    expect(await t.db.select().from(scans).where(eq(scans.userId, member.id))).toHaveLength(1)
  })

  it('records a queued scan whatever changed meanwhile, and whatever its device time: never refused', async () => {
    const { organization, admin, member, tagged, keychain } = await world()
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })
    const long = '2029-12-01T08:00:00.000Z' // far beyond any tolerance: a scan is a record, not judged
    const ahead = new Date(t.clock.now().getTime() + 86_400_000).toISOString()
    const cases = [
      // The keychain was deleted meanwhile: the tag is free.
      [member.cookie, tagged.code, long, { status: 'resolved', key: null, keychain: null }],
      [member.cookie, 'SCN-99999', long, { status: 'unknown', value: 'SCN-99999' }],
      [contact.cookie, tagged.publicId, ahead, { status: 'foreign', publicId: tagged.publicId }],
    ] as const
    for (const [cookie, value, clientTime, expected] of cases) {
      const response = await scan(cookie, value, randomUUID(), {
        'x-client-time': clientTime,
        'x-from-queue': '1',
      })
      expect(response.status, value).toBe(201)
      const body = await response.json()
      expect(body).toMatchObject(expected)
      const [row] = await t.db.select().from(scans).where(eq(scans.id, body.scanId))
      expect(row).toMatchObject({ result: expected.status, fromQueue: true, serverTime: t.clock.now() })
      expect(row!.clientTime?.toISOString()).toBe(clientTime)
    }
  })

  it('answers 422 idempotency_key_reused for the same key with another value', async () => {
    const { member, tagged, loose } = await world()
    const key = randomUUID()
    await scan(member.cookie, tagged.code, key)
    const reused = await scan(member.cookie, loose.code, key)
    expect(reused.status).toBe(422)
    expect((await reused.json()).error.code).toBe('idempotency_key_reused')
    const otherUser = await signedInMember(t, (await world()).organization.id, 'MEMBER')
    expect((await scan(otherUser.cookie, loose.code, key)).status).toBe(201)
  })

  it('answers 400 for a missing or malformed Idempotency-Key, a bad client time, an empty value', async () => {
    const { member } = await world()
    const missing = await t.post('/api/scans', { cookie: member.cookie, json: { value: 'x' } })
    expect(missing.status).toBe(400)
    expect((await missing.json()).error).toMatchObject({
      code: 'validation_failed',
      message: 'The Idempotency-Key header is required.',
    })
    const malformed = await scan(member.cookie, 'x', 'not-a-uuid')
    expect((await malformed.json()).error.message).toBe('The Idempotency-Key header must be a UUID.')
    const badTime = await scan(member.cookie, 'x', randomUUID(), { 'x-client-time': 'yesterday' })
    expect(badTime.status).toBe(400)
    const empty = await scan(member.cookie, '  ')
    expect((await empty.json()).error.message).toBe('Value is required.')
  })

  it('answers 401 signed out, 400 without a selected organization', async () => {
    expect(
      (await t.post('/api/scans', { json: { value: 'x' }, headers: { 'idempotency-key': randomUUID() } }))
        .status,
    ).toBe(401)
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await scan(cookie, 'x')
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('no_organization_selected')
  })

  it("answers a CONTACT 'foreign' for a tag of their organization: only the public landing applies", async () => {
    const { organization, tagged } = await world()
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await (await scan(contact.cookie, tagged.publicId)).json()).status).toBe('foreign')
  })
})

describe('X-Client-Time', () => {
  it('answers 400 for a time the ISO pattern lets through but that is no real instant', async () => {
    const { member, tagged } = await world()
    for (const value of [
      '2024-01-01T00:00:00+05',
      '2024-02-31T00:00:00Z',
      '2023-02-29T12:00:00Z',
      '2024-01-01T00:00:00 +05:00',
    ]) {
      const response = await scan(member.cookie, tagged.code, randomUUID(), { 'x-client-time': value })
      expect(response.status, value).toBe(400)
      expect((await response.json()).error).toMatchObject({
        code: 'validation_failed',
        message: 'The X-Client-Time header must be an ISO 8601 time.',
      })
    }
    const fine = await scan(member.cookie, tagged.code, randomUUID(), {
      'x-client-time': '2024-02-29T12:00:00+0530',
    })
    expect(fine.status).toBe(201)
    const [row] = await t.db
      .select()
      .from(scans)
      .where(eq(scans.id, (await fine.json()).scanId))
    expect(row!.clientTime?.toISOString()).toBe('2024-02-29T06:30:00.000Z')
  })
})
