import { describe, expect, it } from 'vitest'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t)
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  return { organization, admin, manager, member }
}

const create = (cookie: string, json: unknown) => t.post('/api/keychains', { cookie, json })

describe('POST /api/keychains', () => {
  it('creates a keychain in the selected organization, logging its first custodian', async () => {
    const { organization, manager, member } = await world()
    const response = await create(manager.cookie, { name: ' Cave 3 ', custodianId: member.id })
    expect(response.status).toBe(201)
    const keychain = await response.json()
    expect(keychain).toMatchObject({
      organizationId: organization.id,
      organizationName: 'Acme',
      name: 'Cave 3',
      custodian: { id: member.id, email: member.email },
      keys: [],
    })
    const log = await (
      await t.get(`/api/keychains/${keychain.id}/custody-log`, { cookie: member.cookie })
    ).json()
    expect(log.data).toHaveLength(1)
    expect(log.data[0]).toMatchObject({
      by: { id: manager.id },
      from: null,
      to: { id: member.id },
      reason: '',
    })
  })

  it('accepts no custodian, and refuses one who is not an active or invited member (400)', async () => {
    const { organization, manager } = await world()
    expect((await create(manager.cookie, { name: 'Nobody holds it' })).status).toBe(201)
    const stranger = await t.signIn(uniqueEmail())
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const disabled = await signedInMember(t, organization.id, 'MEMBER', { status: 'DISABLED', select: false })
    for (const custodianId of [stranger.profile.id, foreign.admin.id, disabled.id]) {
      const response = await create(manager.cookie, { name: 'X', custodianId })
      expect(response.status).toBe(400)
      expect((await response.json()).error).toMatchObject({
        code: 'validation_failed',
        message: 'The custodian must be a member of the organization.',
        issues: [{ path: 'custodianId', message: 'The custodian must be a member of the organization.' }],
      })
    }
    const invited = await signedInMember(t, organization.id, 'CONTACT', { status: 'INVITED', select: false })
    expect((await create(manager.cookie, { name: 'Lent out', custodianId: invited.id })).status).toBe(201)
  })

  it('answers 400 for a missing name, 403 for a MEMBER', async () => {
    const { manager, member } = await world()
    const response = await create(manager.cookie, { name: '   ' })
    expect(response.status).toBe(400)
    expect((await response.json()).error.message).toBe('Name is required.')
    expect((await create(manager.cookie, { name: 'x'.repeat(121) })).status).toBe(400)
    expect((await create(member.cookie, { name: 'Mine' })).status).toBe(403)
  })
})

describe('GET|PATCH|DELETE /api/keychains/{id}', () => {
  it('reads, renames, hands over with a reason (logged newest first), and deletes', async () => {
    const { admin, manager, member } = await world()
    const keychain = await (await create(manager.cookie, { name: 'Bureau' })).json()
    expect((await t.get(`/api/keychains/${keychain.id}`, { cookie: member.cookie })).status).toBe(200)

    const renamed = await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: manager.cookie,
      json: { name: 'Bureau 2' },
    })
    expect((await renamed.json()).name).toBe('Bureau 2')
    t.clock.advance(60_000)
    await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: manager.cookie,
      json: { custodianId: member.id, reason: 'Astreinte' },
    })
    await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { custodianId: member.id, reason: 'no change, no entry' },
    })
    await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { custodianId: null, reason: 'Rendu' },
    })
    const log = (
      await (await t.get(`/api/keychains/${keychain.id}/custody-log`, { cookie: member.cookie })).json()
    ).data
    expect(log.map((entry: { reason: string }) => entry.reason)).toEqual(['Rendu', 'Astreinte'])
    expect(log[0]).toMatchObject({ by: { id: admin.id }, from: { id: member.id }, to: null })

    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: member.cookie })).status).toBe(403)
    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: manager.cookie })).status).toBe(204)
    expect((await t.get(`/api/keychains/${keychain.id}`, { cookie: manager.cookie })).status).toBe(404)
  })

  it("answers 404 for another organization's keychain on every route, and 400 for bad input", async () => {
    const { manager } = await world()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await (await create(foreign.admin.cookie, { name: 'Theirs' })).json()
    const cookie = manager.cookie
    expect((await t.get(`/api/keychains/${theirs.id}`, { cookie })).status).toBe(404)
    expect(
      (await t.patch(`/api/keychains/${theirs.id}`, { cookie, json: { name: 'Mine now' } })).status,
    ).toBe(404)
    expect((await t.delete(`/api/keychains/${theirs.id}`, { cookie })).status).toBe(404)
    expect((await t.get(`/api/keychains/${theirs.id}/custody-log`, { cookie })).status).toBe(404)
    expect((await t.get(`/api/keychains/${theirs.id}`, { cookie: foreign.admin.cookie })).status).toBe(200)

    const mine = await (await create(cookie, { name: 'Mine' })).json()
    const bad = await t.patch(`/api/keychains/${mine.id}`, { cookie, json: { reason: 'x'.repeat(301) } })
    expect((await bad.json()).error.message).toBe('Reason is too long.')
    expect((await t.patch(`/api/keychains/${mine.id}`, { cookie, json: { colour: 'red' } })).status).toBe(400)
    expect((await t.get('/api/keychains/not-an-id', { cookie })).status).toBe(400)
    expect((await t.get('/api/keychains/not-an-id/custody-log', { cookie })).status).toBe(400)
  })
})

describe('GET /api/keychains', () => {
  it('lists by name, case-insensitively, paginated, filtered by text and by custodian', async () => {
    const { organization, manager, member } = await world()
    for (const name of ['delta', 'Alpha', 'charlie', 'Bravo', 'écho 50%']) {
      await create(manager.cookie, { name, ...(name === 'Bravo' ? { custodianId: member.id } : {}) })
    }
    const cookie = member.cookie
    const first = await (await t.get('/api/keychains?limit=2', { cookie })).json()
    expect(first.data.map((each: { name: string }) => each.name)).toEqual(['Alpha', 'Bravo'])
    expect(first.data[1]).toMatchObject({ custodian: { id: member.id }, keyCount: 0, tagCodes: [] })
    const rest = await (await t.get(`/api/keychains?limit=2&cursor=${first.nextCursor}`, { cookie })).json()
    expect(rest.data.map((each: { name: string }) => each.name)).toEqual(['charlie', 'delta'])
    const last = await (await t.get(`/api/keychains?limit=2&cursor=${rest.nextCursor}`, { cookie })).json()
    expect(last.data).toHaveLength(1)
    expect(last.nextCursor).toBeNull()

    const byText = await (await t.get(`/api/keychains?q=${encodeURIComponent('HARL')}`, { cookie })).json()
    expect(byText.data.map((each: { name: string }) => each.name)).toEqual(['charlie'])
    const literalPercent = await (
      await t.get(`/api/keychains?q=${encodeURIComponent('%')}`, { cookie })
    ).json()
    expect(literalPercent.data).toHaveLength(1)
    const held = await (await t.get(`/api/keychains?custodianId=${member.id}`, { cookie })).json()
    expect(held.data.map((each: { name: string }) => each.name)).toEqual(['Bravo'])
    const foreign = await organizationWithAdmin(t, 'Foreign')
    await create(foreign.admin.cookie, { name: 'Aardvark' })
    const mine = await (await t.get('/api/keychains?limit=100', { cookie })).json()
    expect(mine.data).toHaveLength(5)
    expect(organization.id).toBeDefined()
  })

  it('answers 400 for a bad limit, cursor or custodian id', async () => {
    const { member } = await world()
    const cookie = member.cookie
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      'custodianId=x',
      'cursor=%%%',
      `cursor=${btoa('["a","b"]')}`,
    ]) {
      expect((await t.get(`/api/keychains?${query}`, { cookie })).status, query).toBe(400)
    }
  })
})

describe('concurrent hand-overs', () => {
  it('log a consistent chain: each entry starts from where the previous one ended', async () => {
    const { organization, admin, manager, member } = await world()
    const other = await signedInMember(t, organization.id, 'MEMBER')
    const created = await (await create(manager.cookie, { name: 'Relais', custodianId: member.id })).json()
    const people = [member.id, other.id, admin.id, manager.id]
    let holder = member.id
    for (let round = 0; round < 8; round += 1) {
      const [first, second] = people.filter((id) => id !== holder)
      const answers = await Promise.all(
        [first, second].map((custodianId) =>
          t.patch(`/api/keychains/${created.id}`, { cookie: manager.cookie, json: { custodianId } }),
        ),
      )
      expect(answers.map((response) => response.status)).toEqual([200, 200])
      const now = await (await t.get(`/api/keychains/${created.id}`, { cookie: manager.cookie })).json()
      holder = now.custodian.id
    }
    const log = await (
      await t.get(`/api/keychains/${created.id}/custody-log`, { cookie: manager.cookie })
    ).json()
    const chain = (log.data as Array<{ from: { id: string } | null; to: { id: string } | null }>).toReversed()
    expect(chain).toHaveLength(17)
    expect(chain[0]!.from).toBeNull()
    for (let index = 1; index < chain.length; index += 1) {
      expect(chain[index]!.from?.id, `entry ${index}`).toBe(chain[index - 1]!.to?.id)
    }
    expect(chain.at(-1)!.to?.id).toBe(holder)
  })
})
