import { and, eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { memberships, sessions, users } from '../../db/schema.ts'

const t = setupTestApp()
const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error'

type World = Awaited<ReturnType<typeof scimWorld>>

async function scimWorld(role = 'MEMBER') {
  const { organization, admin } = await organizationWithAdmin(t, 'Campus')
  const response = await t.post(`/api/organizations/${organization.id}/api-tokens`, {
    cookie: admin.cookie,
    json: { name: 'Entra ID', role, kind: 'scim' },
  })
  expect(response.status).toBe(201)
  const { token } = (await response.json()) as { token: string }
  return { organization, admin, token }
}

function scim(world: Pick<World, 'token'>, method: string, path: string, json?: unknown) {
  return t.request(`/scim/v2${path}`, {
    method,
    origin: null,
    headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/scim+json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  })
}

const newUser = (userName: string, extra: Record<string, unknown> = {}) => ({
  schemas: [USER],
  userName,
  name: { givenName: 'Ada', familyName: 'Lovelace' },
  ...extra,
})

async function created(world: World, userName = uniqueEmail('hire'), extra: Record<string, unknown> = {}) {
  const response = await scim(world, 'POST', '/Users', newUser(userName, extra))
  expect(response.status).toBe(201)
  return (await response.json()) as { id: string; userName: string; active: boolean }
}

const errorOf = async (response: Response) => ({ status: response.status, body: await response.json() })

let world: World
beforeEach(async () => {
  world = await scimWorld()
})

describe('SCIM authentication', () => {
  it('takes only an organization token of kind scim, and the API never takes that token', async () => {
    const none = await t.request('/scim/v2/Users', { origin: null })
    expect(none.status).toBe(401)
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="scim"')
    expect(await none.json()).toEqual({
      schemas: [ERROR],
      status: '401',
      detail: 'An organization token of kind scim is required (Authorization: Bearer …).',
    })
    const api = await t.post(`/api/organizations/${world.organization.id}/api-tokens`, {
      cookie: world.admin.cookie,
      json: { name: 'API', role: 'ADMIN' },
    })
    const apiToken = ((await api.json()) as { token: string }).token
    expect((await scim({ token: apiToken }, 'GET', '/Users')).status).toBe(401)
    const onApi = await t.get('/api/users', {
      origin: null,
      headers: { authorization: `Bearer ${world.token}` },
    })
    expect(onApi.status).toBe(401)
  })

  it('stops working once revoked, and lists beside the organization’s API tokens as kind scim', async () => {
    const list = await t.get(`/api/organizations/${world.organization.id}/api-tokens`, {
      cookie: world.admin.cookie,
    })
    const [token] = ((await list.json()) as { data: Array<{ id: string; kind: string; role: string }> }).data
    expect(token).toMatchObject({ kind: 'scim', role: 'MEMBER' })
    expect((await scim(world, 'GET', '/Users')).status).toBe(200)
    const revoked = await t.delete(`/api/organizations/${world.organization.id}/api-tokens/${token!.id}`, {
      cookie: world.admin.cookie,
    })
    expect(revoked.status).toBe(204)
    expect((await scim(world, 'GET', '/Users')).status).toBe(401)
  })
})

describe('SCIM discovery', () => {
  it('describes the service, the User resource type and its schema', async () => {
    const config = await scim(world, 'GET', '/ServiceProviderConfig')
    expect(config.headers.get('content-type')).toBe('application/scim+json')
    expect(await config.json()).toMatchObject({
      patch: { supported: true },
      filter: { supported: true, maxResults: 100 },
      bulk: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    })
    const types = (await (await scim(world, 'GET', '/ResourceTypes')).json()) as { Resources: unknown[] }
    expect(types.Resources).toEqual([
      expect.objectContaining({ id: 'User', endpoint: '/Users', schema: USER }),
    ])
    const schema = await (await scim(world, 'GET', `/Schemas/${USER}`)).json()
    expect(schema).toMatchObject({ id: USER, name: 'User' })
    expect((schema as { attributes: Array<{ name: string }> }).attributes.map((each) => each.name)).toEqual([
      'userName',
      'name',
      'displayName',
      'emails',
      'active',
    ])
    expect((await scim(world, 'GET', '/Groups')).status).toBe(404)
  })
})

describe('SCIM users', () => {
  it('creates a person with the token’s role, INVITED so keys can be lent at once, and reads them back', async () => {
    const email = uniqueEmail('ada')
    const response = await scim(world, 'POST', '/Users', newUser(email.toUpperCase(), { externalId: 'e-1' }))
    expect(response.status).toBe(201)
    const body = (await response.json()) as { id: string }
    expect(response.headers.get('location')).toBe(`http://localhost:3000/scim/v2/Users/${body.id}`)
    expect(body).toEqual({
      schemas: [USER],
      id: expect.any(String),
      externalId: 'e-1',
      userName: email,
      name: { givenName: 'Ada', familyName: 'Lovelace', formatted: 'Ada Lovelace' },
      displayName: 'Ada Lovelace',
      emails: [{ value: email, type: 'work', primary: true }],
      active: true,
      meta: {
        resourceType: 'User',
        created: expect.any(String),
        location: `http://localhost:3000/scim/v2/Users/${body.id}`,
      },
    })
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, world.organization.id), eq(memberships.userId, body.id)))
    expect(membership).toMatchObject({ role: 'MEMBER', status: 'INVITED', externalId: 'e-1' })
    expect(await (await scim(world, 'GET', `/Users/${body.id}`)).json()).toEqual(body)
    // The members' list of the app shows them as any invitee.
    const members = await t.get('/api/users', { cookie: world.admin.cookie })
    expect(await members.text()).toContain(email)
  })

  it('refuses a second person with the same userName or externalId (409 uniqueness)', async () => {
    const first = await created(world, uniqueEmail('dup'), { externalId: 'x-1' })
    expect(await errorOf(await scim(world, 'POST', '/Users', newUser(first.userName)))).toEqual({
      status: 409,
      body: {
        schemas: [ERROR],
        status: '409',
        scimType: 'uniqueness',
        detail: 'This person is already a member of the organization.',
      },
    })
    const again = await scim(world, 'POST', '/Users', newUser(uniqueEmail('other'), { externalId: 'x-1' }))
    expect(await errorOf(again)).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } })
  })

  it('refuses a body that is not a SCIM user, with what is wrong', async () => {
    const cases: Array<[unknown, string, string]> = [
      [{ schemas: [USER] }, 'invalidValue', 'userName: userName is required.'],
      [
        { schemas: [USER], userName: 'not an address' },
        'invalidValue',
        'userName: userName must be an e-mail address.',
      ],
      [{ userName: 'a@b.example' }, 'invalidValue', expect.stringContaining('schemas')],
      [newUser('a@b.example', { active: 'yes' }), 'invalidValue', 'active: active is true or false.'],
    ]
    for (const [body, scimType, detail] of cases) {
      expect(await errorOf(await scim(world, 'POST', '/Users', body))).toEqual({
        status: 400,
        body: { schemas: [ERROR], status: '400', scimType, detail },
      })
    }
    const broken = await t.request('/scim/v2/Users', {
      method: 'POST',
      origin: null,
      headers: { authorization: `Bearer ${world.token}`, 'content-type': 'application/scim+json' },
      body: '{"schemas":',
    })
    expect(await errorOf(broken)).toMatchObject({ status: 400, body: { scimType: 'invalidSyntax' } })
  })

  it('filters by userName (any case) and externalId, pages with startIndex and count, and refuses other filters', async () => {
    const people = [
      await created(world),
      await created(world),
      await created(world, uniqueEmail('z'), { externalId: 'z-9' }),
    ]
    const all = (await (await scim(world, 'GET', '/Users')).json()) as {
      totalResults: number
      Resources: Array<{ id: string }>
    }
    // The admin who made the token is a member too.
    expect(all.totalResults).toBe(4)
    const found = await scim(
      world,
      'GET',
      `/Users?filter=${encodeURIComponent(`USERNAME Eq "${people[1]!.userName.toUpperCase()}"`)}`,
    )
    expect(await found.json()).toMatchObject({
      schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
      totalResults: 1,
      itemsPerPage: 1,
      startIndex: 1,
      Resources: [{ id: people[1]!.id }],
    })
    const byExternal = await scim(world, 'GET', `/Users?filter=${encodeURIComponent('externalId eq "z-9"')}`)
    expect(await byExternal.json()).toMatchObject({ totalResults: 1, Resources: [{ id: people[2]!.id }] })
    const none = await scim(
      world,
      'GET',
      `/Users?filter=${encodeURIComponent('userName eq "nobody@x.example"')}`,
    )
    expect(await none.json()).toMatchObject({ totalResults: 0, itemsPerPage: 0, Resources: [] })
    const page = (await (await scim(world, 'GET', '/Users?startIndex=2&count=2')).json()) as {
      totalResults: number
      itemsPerPage: number
      startIndex: number
      Resources: Array<{ id: string }>
    }
    expect(page).toMatchObject({ totalResults: 4, itemsPerPage: 2, startIndex: 2 })
    expect(page.Resources.map((each) => each.id)).toEqual(all.Resources.slice(1, 3).map((each) => each.id))
    const counted = await (await scim(world, 'GET', '/Users?count=0')).json()
    expect(counted).toMatchObject({ totalResults: 4, itemsPerPage: 0, Resources: [] })
    for (const filter of ['displayName eq "Ada"', 'userName co "a"', 'userName eq "a" or userName eq "b"']) {
      const refused = await scim(world, 'GET', `/Users?filter=${encodeURIComponent(filter)}`)
      expect(await errorOf(refused)).toEqual({
        status: 400,
        body: {
          schemas: [ERROR],
          status: '400',
          scimType: 'invalidFilter',
          detail: 'Only the filters userName eq "…" and externalId eq "…" are supported.',
        },
      })
    }
    expect((await scim(world, 'GET', '/Users?count=many')).status).toBe(400)
  })

  it('answers 404 for another organization’s person, an unknown id and a malformed id', async () => {
    const other = await scimWorld()
    const theirs = await created(other)
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'nope']) {
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const body =
          method === 'PUT'
            ? newUser(theirs.userName)
            : method === 'PATCH'
              ? { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] }
              : undefined
        const response = await scim(world, method, `/Users/${id}`, body)
        expect(await errorOf(response)).toEqual({
          status: 404,
          body: { schemas: [ERROR], status: '404', detail: 'No such user.' },
        })
      }
    }
    expect(await (await scim(other, 'GET', `/Users/${theirs.id}`)).json()).toMatchObject({ active: true })
  })

  it('replaces an invitee’s names and e-mail, but not the names or e-mail of someone who signed in', async () => {
    const hire = await created(world)
    const email = uniqueEmail('renamed')
    const replaced = await scim(world, 'PUT', `/Users/${hire.id}`, {
      schemas: [USER],
      userName: email,
      name: { givenName: 'Augusta', familyName: 'King' },
      externalId: 'k-2',
    })
    expect(await replaced.json()).toMatchObject({
      userName: email,
      name: { givenName: 'Augusta', familyName: 'King' },
      externalId: 'k-2',
      active: true,
    })
    const member = await signedInMember(t, world.organization.id, 'MEMBER')
    const [own] = await t.db.select().from(users).where(eq(users.id, member.id))
    const kept = await scim(world, 'PUT', `/Users/${member.id}`, {
      schemas: [USER],
      userName: member.email,
      name: { givenName: 'Other', familyName: 'Name' },
    })
    expect(kept.status).toBe(200)
    const [after] = await t.db.select().from(users).where(eq(users.id, member.id))
    expect([after!.firstName, after!.lastName]).toEqual([own!.firstName, own!.lastName])
    const moved = await scim(world, 'PUT', `/Users/${member.id}`, newUser(uniqueEmail('moved')))
    expect(await errorOf(moved)).toMatchObject({ status: 400, body: { scimType: 'mutability' } })
    const taken = await scim(world, 'PUT', `/Users/${hire.id}`, newUser(member.email))
    expect(await errorOf(taken)).toMatchObject({ status: 409, body: { scimType: 'uniqueness' } })
  })

  it('deactivates by PATCH active (as Entra ID writes it), ending the person’s sessions within the request', async () => {
    const member = await signedInMember(t, world.organization.id, 'MEMBER')
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).not.toHaveLength(0)
    const response = await scim(world, 'PATCH', `/Users/${member.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: member.id, active: false })
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([])
    expect((await t.get('/api/profile', { cookie: member.cookie })).status).toBe(401)
    const [membership] = await t.db
      .select({ status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.organizationId, world.organization.id), eq(memberships.userId, member.id)))
    expect(membership!.status).toBe('DISABLED')
    // Okta's form: no path, an object of attributes; enabling again makes them an invitee until they sign in.
    const back = await scim(world, 'PATCH', `/Users/${member.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', value: { active: true, 'name.givenName': 'Ignored once signed in' } }],
    })
    expect(await back.json()).toMatchObject({ active: true })
    const [again] = await t.db
      .select({ status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.organizationId, world.organization.id), eq(memberships.userId, member.id)))
    expect(again!.status).toBe('INVITED')
  })

  it('tells the admins when the person it deactivates still holds a keychain', async () => {
    const member = await signedInMember(t, world.organization.id, 'MEMBER')
    await makeKeychain(t, world.organization.id, 'Bâtiment B', member.id)
    t.mail.messages.length = 0
    const response = await scim(world, 'PATCH', `/Users/${member.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    })
    expect(response.status).toBe(200)
    expect(t.mail.to(world.admin.email).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/a quitté Campus avec 1 trousseau$/),
    ])
  })

  it('patches names and externalId, ignores attributes it does not keep, and refuses a bad operation', async () => {
    const hire = await created(world)
    const patched = await scim(world, 'PATCH', `/Users/${hire.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'add', path: 'name.givenName', value: 'Grace' },
        { op: 'replace', path: 'externalId', value: 'g-1' },
        { op: 'replace', path: 'title', value: 'Engineer' },
        { op: 'add', path: 'emails[type eq "work"].value', value: 'ignored@x.example' },
      ],
    })
    expect(await patched.json()).toMatchObject({
      name: { givenName: 'Grace', familyName: 'Lovelace' },
      externalId: 'g-1',
    })
    const removed = await scim(world, 'PATCH', `/Users/${hire.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'remove', path: 'externalId' }],
    })
    expect(await removed.json()).not.toHaveProperty('externalId')
    const bad: Array<[unknown, number, string]> = [
      [{ schemas: [PATCH], Operations: [{ op: 'move', path: 'active', value: true }] }, 400, 'invalidValue'],
      [{ schemas: [PATCH], Operations: [] }, 400, 'invalidValue'],
      [
        { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: 'maybe' }] },
        400,
        'invalidValue',
      ],
      [{ schemas: [PATCH], Operations: [{ op: 'remove', path: 'active' }] }, 400, 'mutability'],
      [{ schemas: [PATCH], Operations: [{ op: 'remove' }] }, 400, 'noTarget'],
      [{ schemas: [PATCH], Operations: [{ op: 'replace', value: 'x' }] }, 400, 'invalidValue'],
      [
        { schemas: [USER], Operations: [{ op: 'replace', path: 'active', value: false }] },
        400,
        'invalidValue',
      ],
    ]
    for (const [body, status, scimType] of bad) {
      expect(await errorOf(await scim(world, 'PATCH', `/Users/${hire.id}`, body))).toMatchObject({
        status,
        body: { scimType },
      })
    }
  })

  it('deletes: the person leaves the provider’s list (404 after) and stays DISABLED in the organization; created again, they come back', async () => {
    const hire = await created(world, uniqueEmail('leaver'), { externalId: 'l-1' })
    expect((await scim(world, 'DELETE', `/Users/${hire.id}`)).status).toBe(204)
    expect((await scim(world, 'GET', `/Users/${hire.id}`)).status).toBe(404)
    expect((await scim(world, 'DELETE', `/Users/${hire.id}`)).status).toBe(404)
    const list = (await (await scim(world, 'GET', '/Users')).json()) as { Resources: Array<{ id: string }> }
    expect(list.Resources.map((each) => each.id)).not.toContain(hire.id)
    const [membership] = await t.db
      .select({ status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.organizationId, world.organization.id), eq(memberships.userId, hire.id)))
    expect(membership!.status).toBe('DISABLED')
    const back = await created(world, hire.userName, { externalId: 'l-1' })
    expect(back).toMatchObject({ id: hire.id, active: true })
  })

  it('refuses a body over 64 KiB', async () => {
    const response = await scim(
      world,
      'POST',
      '/Users',
      newUser('big@x.example', { padding: 'x'.repeat(70_000) }),
    )
    expect(await errorOf(response)).toMatchObject({ status: 413, body: { status: '413' } })
  })
})
