import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { CreatedApiToken } from '../../../contract/api-tokens.ts'
import { WITHHELD_FROM_TOKENS } from '../../../contract/permissions.ts'
import { addMember, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, type TestApp } from '../../../tests/server/harness.ts'
import { apiTokens, calendarFeeds, memberships, rateLimits, webhookEndpoints } from '../../db/schema.ts'
import { API_TOKEN_RATE_LIMIT, rateLimitKeyOf } from './resolve.ts'

const t = setupTestAppAtEpoch()
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

async function personalToken(t: TestApp, cookie: string, json: object = { name: 'CI' }) {
  const response = await t.post('/api/api-tokens', { cookie, json })
  expect(response.status).toBe(201)
  return (await response.json()) as CreatedApiToken
}

async function organizationToken(t: TestApp, cookie: string, organizationId: string, role: string) {
  const response = await t.post(`/api/organizations/${organizationId}/api-tokens`, {
    cookie,
    json: { name: `${role} robot`, role },
  })
  expect(response.status).toBe(201)
  return (await response.json()) as CreatedApiToken
}

describe('personal API tokens', () => {
  it('are shown once, stored as a keyed hash only, listed without their secret, and act as their user', async () => {
    const { admin } = await organizationWithAdmin(t)
    const created = await personalToken(t, admin.cookie, { name: '  Intégration  ' })
    expect(created.token).toMatch(/^trs_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/)
    expect(created.apiToken).toMatchObject({
      name: 'Intégration',
      kind: 'personal',
      role: null,
      expiresAt: null,
    })
    expect(created.token.startsWith(`${created.apiToken.prefix}_`)).toBe(true)

    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.apiToken.id))
    expect(JSON.stringify(row)).not.toContain(created.token.slice(17))
    expect(row!.secretHash).toHaveLength(43)

    const list = await (await t.get('/api/api-tokens', { cookie: admin.cookie })).json()
    expect(list.data.map((token: { id: string }) => token.id)).toEqual([created.apiToken.id])
    expect(JSON.stringify(list)).not.toContain(created.token.slice(17))

    const profile = await t.get('/api/profile', { headers: bearer(created.token), origin: null })
    expect(profile.status).toBe(200)
    expect((await profile.json()).id).toBe(admin.id)
    const [used] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, created.apiToken.id))
    expect(used!.lastUsedAt).toEqual(t.clock.now())
  })

  it('write without an Origin (no ambient credential), while a cookie without one is still refused', async () => {
    const { admin } = await organizationWithAdmin(t)
    const { token } = await personalToken(t, admin.cookie)
    const withToken = await t.post('/api/keychains', {
      headers: bearer(token),
      origin: null,
      json: { name: 'Par API' },
    })
    expect(withToken.status).toBe(201)
    const withCookie = await t.post('/api/keychains', {
      cookie: admin.cookie,
      origin: null,
      json: { name: 'X' },
    })
    expect(withCookie.status).toBe(403)
    expect((await withCookie.json()).error.code).toBe('origin_rejected')
    const crossSite = await t.post('/api/keychains', {
      cookie: admin.cookie,
      origin: 'https://evil.example',
      json: { name: 'X' },
    })
    expect(crossSite.status).toBe(403)
  })

  it('never fall back to the cookie: a bad bearer token beside a good cookie answers 401', async () => {
    const { admin } = await organizationWithAdmin(t)
    for (const authorization of [
      `Bearer trs_000000000000_${'A'.repeat(43)}`,
      'Bearer',
      'Bearer a b',
      'bearer x',
    ]) {
      const response = await t.post('/api/keychains', {
        cookie: admin.cookie,
        origin: null,
        headers: { authorization },
        json: { name: 'X' },
      })
      expect(response.status, authorization).toBe(401)
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    }
    // Another scheme is not a token: the cookie (and its Origin rule) applies.
    const basic = await t.get('/api/profile', {
      cookie: admin.cookie,
      headers: { authorization: 'Basic eDp5' },
    })
    expect(basic.status).toBe(200)
  })

  it('answer 401 once revoked or expired, and cannot be made already expired', async () => {
    const { admin } = await organizationWithAdmin(t)
    const revoked = await personalToken(t, admin.cookie)
    expect((await t.get('/api/profile', { headers: bearer(revoked.token) })).status).toBe(200)
    const other = await signedInMember(t, (await organizationWithAdmin(t)).organization.id, 'ADMIN')
    expect((await t.delete(`/api/api-tokens/${revoked.apiToken.id}`, { cookie: other.cookie })).status).toBe(
      404,
    )
    expect((await t.delete(`/api/api-tokens/${revoked.apiToken.id}`, { cookie: admin.cookie })).status).toBe(
      204,
    )
    expect((await t.get('/api/profile', { headers: bearer(revoked.token) })).status).toBe(401)
    expect((await (await t.get('/api/api-tokens', { cookie: admin.cookie })).json()).data).toEqual([])

    const inAnHour = new Date(t.clock.now().getTime() + 3_600_000).toISOString()
    const expiring = await personalToken(t, admin.cookie, { name: 'Short', expiresAt: inAnHour })
    expect(expiring.apiToken.expiresAt).toBe(inAnHour)
    expect((await t.get('/api/profile', { headers: bearer(expiring.token) })).status).toBe(200)
    t.clock.advance(3_600_000)
    expect((await t.get('/api/profile', { headers: bearer(expiring.token) })).status).toBe(401)

    const past = await t.post('/api/api-tokens', {
      cookie: admin.cookie,
      json: { name: 'Old', expiresAt: new Date(t.clock.now().getTime() - 1000).toISOString() },
    })
    expect(past.status).toBe(400)
    expect((await past.json()).error.issues[0].path).toBe('expiresAt')
    expect((await t.post('/api/api-tokens', { cookie: admin.cookie, json: { name: ' ' } })).status).toBe(400)
  })

  it('do not manage tokens: the token routes take a session only', async () => {
    const { admin, organization } = await organizationWithAdmin(t)
    const { token, apiToken } = await personalToken(t, admin.cookie)
    const asToken = { headers: bearer(token) }
    expect((await t.get('/api/api-tokens', asToken)).status).toBe(403)
    expect((await t.post('/api/api-tokens', { ...asToken, json: { name: 'More' } })).status).toBe(403)
    expect((await t.delete(`/api/api-tokens/${apiToken.id}`, asToken)).status).toBe(403)
    expect((await t.get(`/api/organizations/${organization.id}/api-tokens`, asToken)).status).toBe(403)
    expect((await t.get('/api/profile', asToken)).status).toBe(200)
  })

  it('are rate-limited per token with the count in the database', async () => {
    const { admin } = await organizationWithAdmin(t)
    const { token, apiToken } = await personalToken(t, admin.cookie)
    const other = await personalToken(t, admin.cookie)
    expect((await t.get('/api/profile', { headers: bearer(token) })).status).toBe(200)
    const key = rateLimitKeyOf(apiToken.id)
    const [counted] = await t.db.select().from(rateLimits).where(eq(rateLimits.key, key))
    expect(counted!.count).toBe(1)
    await t.db.update(rateLimits).set({ count: API_TOKEN_RATE_LIMIT.limit }).where(eq(rateLimits.key, key))
    const limited = await t.get('/api/profile', { headers: bearer(token) })
    expect(limited.status).toBe(429)
    expect((await limited.json()).error.code).toBe('rate_limited')
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await t.get('/api/profile', { headers: bearer(other.token) })).status).toBe(200)
    t.clock.advance(API_TOKEN_RATE_LIMIT.windowMs)
    expect((await t.get('/api/profile', { headers: bearer(token) })).status).toBe(200)
  })
})

describe('organization API tokens', () => {
  it('are made by admins only, act in their organization with their role, and nowhere else', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const refused = await t.post(`/api/organizations/${organization.id}/api-tokens`, {
      cookie: manager.cookie,
      json: { name: 'Robot', role: 'MEMBER' },
    })
    expect(refused.status).toBe(403)
    const tooHigh = await t.post(`/api/organizations/${organization.id}/api-tokens`, {
      cookie: admin.cookie,
      json: { name: 'Robot', role: 'OWNER' },
    })
    expect(tooHigh.status).toBe(400)

    const member = await organizationToken(t, admin.cookie, organization.id, 'MEMBER')
    expect(member.apiToken).toMatchObject({
      kind: 'organization',
      role: 'MEMBER',
      organizationId: organization.id,
    })
    const asMember = { headers: bearer(member.token), origin: null }
    expect((await t.get('/api/keychains', asMember)).status).toBe(200)
    expect((await t.post('/api/keychains', { ...asMember, json: { name: 'No' } })).status).toBe(403)
    // A person's routes are not an organization token's.
    expect((await t.get('/api/profile', asMember)).status).toBe(403)
    expect((await t.get('/api/organizations', asMember)).status).toBe(403)
    expect((await t.get(`/api/organizations/${organization.id}`, asMember)).status).toBe(200)
    // The creator is an admin of the foreign organization too: the token still cannot reach it.
    await addMember(t, {
      userId: admin.id,
      organizationId: foreign.organization.id,
      role: 'ADMIN',
      select: false,
    })
    expect((await t.get(`/api/organizations/${foreign.organization.id}`, asMember)).status).toBe(404)
    expect(
      (await t.get(`/api/organizations/${foreign.organization.id}`, { cookie: admin.cookie })).status,
    ).toBe(200)

    t.clock.advance(1000)
    const manage = await organizationToken(t, admin.cookie, organization.id, 'MANAGER')
    const asManager = { headers: bearer(manage.token), origin: null }
    expect((await t.post('/api/keychains', { ...asManager, json: { name: 'Yes' } })).status).toBe(201)

    const list = await (
      await t.get(`/api/organizations/${organization.id}/api-tokens`, { cookie: admin.cookie })
    ).json()
    expect(list.data.map((token: { role: string }) => token.role)).toEqual(['MANAGER', 'MEMBER'])
    expect(list.data[0].createdBy.id).toBe(admin.id)
    expect(
      (await t.get(`/api/organizations/${foreign.organization.id}/api-tokens`, { cookie: manager.cookie }))
        .status,
    ).toBe(404)
    // Revoked through another organization's path: not found; through its own: gone.
    expect(
      (
        await t.delete(`/api/organizations/${foreign.organization.id}/api-tokens/${manage.apiToken.id}`, {
          cookie: admin.cookie,
        })
      ).status,
    ).toBe(404)
    expect(
      (
        await t.delete(`/api/organizations/${organization.id}/api-tokens/${manage.apiToken.id}`, {
          cookie: admin.cookie,
        })
      ).status,
    ).toBe(204)
    expect((await t.get('/api/keychains', asManager)).status).toBe(401)
  })

  it('stop working when their creator is no longer an admin of the organization', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { token } = await organizationToken(t, admin.cookie, organization.id, 'MANAGER')
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(200)
    await t.db.update(memberships).set({ role: 'MANAGER' }).where(eq(memberships.userId, admin.id))
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(401)
  })
})

describe('what no API token may do', () => {
  const refusedAsToken = async (response: Response) => {
    expect(response.status).toBe(403)
    const { error } = await response.json()
    expect(error.code).toBe('forbidden')
    expect(error.message).toMatch(/API token may not manage members/)
  }

  it('makes, promotes or disables no member, and manages no webhook, even as an ADMIN', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const robot = await organizationToken(t, admin.cookie, organization.id, 'ADMIN')
    const personal = await personalToken(t, admin.cookie)
    for (const token of [robot.token, personal.token]) {
      const as = { headers: bearer(token), origin: null }
      await refusedAsToken(
        await t.post(`/api/organizations/${organization.id}/users`, {
          ...as,
          json: { email: 'new-admin@example.test', role: 'ADMIN' },
        }),
      )
      await refusedAsToken(await t.patch(`/api/users/${member.id}`, { ...as, json: { role: 'ADMIN' } }))
      await refusedAsToken(await t.patch(`/api/users/${member.id}`, { ...as, json: { status: 'DISABLED' } }))
      await refusedAsToken(
        await t.post('/api/webhooks', {
          ...as,
          json: { url: 'https://hooks.example.test/in', eventTypes: ['transfer.authorized'] },
        }),
      )
      await refusedAsToken(await t.get('/api/webhooks', as))
      // What the role may do otherwise still works: reading the members.
      expect((await t.get('/api/users', as)).status).toBe(200)
    }
    const rows = await t.db.select().from(memberships).where(eq(memberships.organizationId, organization.id))
    expect(rows.map((row) => row.role).sort()).toEqual(['ADMIN', 'MEMBER'])
    expect(rows.every((row) => row.status !== 'DISABLED')).toBe(true)
    expect(
      await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, organization.id)),
    ).toEqual([])
    // The same admin, signed in, may.
    expect(
      (await t.patch(`/api/users/${member.id}`, { cookie: admin.cookie, json: { role: 'MANAGER' } })).status,
    ).toBe(200)
  })

  it('shows a personal token the permissions it has: its user’s, less what no token may do', async () => {
    const { admin } = await organizationWithAdmin(t)
    const { token } = await personalToken(t, admin.cookie)
    const asSession = (await (await t.get('/api/profile', { cookie: admin.cookie })).json()).permissions
    const asToken = (await (await t.get('/api/profile', { headers: bearer(token) })).json()).permissions
    expect(asSession).toEqual(expect.arrayContaining([...WITHHELD_FROM_TOKENS]))
    expect(asToken).toEqual(asSession.filter((each: string) => !WITHHELD_FROM_TOKENS.some((w) => w === each)))
    const updated = await t.patch('/api/profile', { headers: bearer(token), json: { firstName: 'Ada' } })
    expect((await updated.json()).permissions).toEqual(asToken)
  })

  it('makes no calendar feed: its address would outlive the token', async () => {
    const { admin } = await organizationWithAdmin(t)
    const { token, apiToken } = await personalToken(t, admin.cookie)
    for (const scope of ['personal', 'organization']) {
      const made = await t.post('/api/calendar-feeds', { headers: bearer(token), json: { scope } })
      expect(made.status).toBe(403)
      expect((await made.json()).error.code).toBe('forbidden')
    }
    expect(await t.db.select().from(calendarFeeds).where(eq(calendarFeeds.userId, admin.id))).toEqual([])
    // Listing one's feeds stays open; the token's revocation leaves nothing behind to revoke.
    expect((await t.get('/api/calendar-feeds', { headers: bearer(token) })).status).toBe(200)
    expect((await t.delete(`/api/api-tokens/${apiToken.id}`, { cookie: admin.cookie })).status).toBe(204)
  })
})

describe('an organization token whose creator stopped being an admin', () => {
  it('stays revoked when they are made admin again, even if it was not used in between', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const other = await signedInMember(t, organization.id, 'ADMIN')
    const { token } = await organizationToken(t, admin.cookie, organization.id, 'MANAGER')
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(200)
    for (const update of [{ role: 'MANAGER' }, { role: 'ADMIN' }]) {
      const changed = await t.patch(`/api/users/${admin.id}`, { cookie: other.cookie, json: update })
      expect(changed.status).toBe(200)
    }
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(401)
    const list = await t.get(`/api/organizations/${organization.id}/api-tokens`, { cookie: admin.cookie })
    expect((await list.json()).data).toEqual([])
  })

  it('stays revoked when they are disabled and enabled again', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const other = await signedInMember(t, organization.id, 'ADMIN')
    const { token } = await organizationToken(t, admin.cookie, organization.id, 'MEMBER')
    for (const status of ['DISABLED', 'ACTIVE']) {
      const changed = await t.patch(`/api/users/${admin.id}`, { cookie: other.cookie, json: { status } })
      expect(changed.status).toBe(200)
    }
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(401)
  })

  it('is revoked by its first refused request when the role changed some other way', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const { token, apiToken } = await organizationToken(t, admin.cookie, organization.id, 'MANAGER')
    const ofAdmin = and(eq(memberships.userId, admin.id), eq(memberships.organizationId, organization.id))
    await t.db.update(memberships).set({ role: 'MANAGER' }).where(ofAdmin)
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(401)
    await t.db.update(memberships).set({ role: 'ADMIN' }).where(ofAdmin)
    expect((await t.get('/api/keychains', { headers: bearer(token) })).status).toBe(401)
    const [row] = await t.db.select().from(apiTokens).where(eq(apiTokens.id, apiToken.id))
    expect(row!.revokedAt).toEqual(t.clock.now())
  })

  it('leaves the tokens of the other admins, and the demoted one’s personal tokens, working', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const other = await signedInMember(t, organization.id, 'ADMIN')
    const kept = await organizationToken(t, other.cookie, organization.id, 'MEMBER')
    const personal = await personalToken(t, admin.cookie)
    const changed = await t.patch(`/api/users/${admin.id}`, {
      cookie: other.cookie,
      json: { role: 'MANAGER' },
    })
    expect(changed.status).toBe(200)
    expect((await t.get('/api/keychains', { headers: bearer(kept.token) })).status).toBe(200)
    expect((await t.get('/api/keychains', { headers: bearer(personal.token) })).status).toBe(200)
  })
})
