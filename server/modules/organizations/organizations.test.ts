import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import {
  addMember,
  createOrganization,
  makeTags,
  NEW_ORGANIZATION,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { keychainsAtHome, openStocktake } from '../../../tests/server/stocktakes.ts'

const t = setupTestApp()

describe('POST /api/organizations', () => {
  it('creates it with the caller as ADMIN and selects it when none was selected', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await t.post('/api/organizations', { cookie, json: NEW_ORGANIZATION })
    expect(response.status).toBe(201)
    const organization = await response.json()
    expect(organization).toMatchObject({
      name: 'Agence du Port',
      address: { line1: '3 quai Est', line2: '', city: 'Marseille', postalCode: '13002', country: 'FR' },
      timeZone: 'Europe/Paris',
      role: 'ADMIN',
    })
    expect(await (await t.get('/api/organizations/default', { cookie })).json()).toEqual({
      id: organization.id,
    })
    const profile = await (await t.get('/api/profile', { cookie })).json()
    expect(profile.permissions).toEqual(permissionsFor('ADMIN'))
  })

  it('keeps the selected organization when the caller already had one', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const first = await (await t.post('/api/organizations', { cookie, json: NEW_ORGANIZATION })).json()
    await t.post('/api/organizations', { cookie, json: { ...NEW_ORGANIZATION, name: 'Second' } })
    expect((await (await t.get('/api/organizations/default', { cookie })).json()).id).toBe(first.id)
  })

  it('answers 400 with the first missing field', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const response = await t.post('/api/organizations', {
      cookie,
      json: { name: '', address: { line1: 'x', city: 'y', postalCode: '1', country: 'FR' } },
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error).toMatchObject({
      code: 'validation_failed',
      message: 'Name is required.',
    })
    const noCountry = await t.post('/api/organizations', {
      cookie,
      json: { name: 'X', address: { line1: 'x', city: 'y', postalCode: '1', country: 'France' } },
    })
    expect((await noCountry.json()).error.message).toBe('Country must be a two-letter code.')
  })

  it('answers 401 signed out', async () => {
    expect((await t.post('/api/organizations', { json: NEW_ORGANIZATION })).status).toBe(401)
  })
})

describe('GET /api/organizations', () => {
  it("lists the caller's organizations with their role, not the disabled or foreign ones", async () => {
    const { organization: mine, admin } = await organizationWithAdmin(t, 'Zèbre')
    const invited = await createOrganization(t, 'alpha')
    const disabled = await createOrganization(t, 'Disabled')
    await createOrganization(t, 'Foreign')
    await addMember(t, {
      userId: admin.id,
      organizationId: invited.id,
      role: 'MEMBER',
      status: 'INVITED',
      select: false,
    })
    await addMember(t, {
      userId: admin.id,
      organizationId: disabled.id,
      role: 'ADMIN',
      status: 'DISABLED',
      select: false,
    })
    const response = await t.get('/api/organizations', { cookie: admin.cookie })
    expect(response.status).toBe(200)
    const { data } = await response.json()
    expect(data.map((each: { name: string; role: string }) => [each.name, each.role])).toEqual([
      ['alpha', 'MEMBER'],
      ['Zèbre', 'ADMIN'],
    ])
    expect(data[1].id).toBe(mine.id)
  })
})

describe('GET /api/organizations/{id}', () => {
  it('answers a member with the organization and their role', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const response = await t.get(`/api/organizations/${organization.id}`, { cookie: member.cookie })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: organization.id, name: 'Acme', role: 'MEMBER' })
    expect((await t.get(`/api/organizations/${organization.id}`, { cookie: admin.cookie })).status).toBe(200)
  })

  it('answers 404 for another organization, and for one that does not exist', async () => {
    const { admin } = await organizationWithAdmin(t)
    const foreign = await createOrganization(t, 'Foreign')
    const response = await t.get(`/api/organizations/${foreign.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(404)
    expect((await response.json()).error.code).toBe('not_found')
    const missing = await t.get('/api/organizations/00000000-0000-4000-8000-000000000000', {
      cookie: admin.cookie,
    })
    expect(missing.status).toBe(404)
  })

  it('answers 400 for a malformed id and 403 for a CONTACT', async () => {
    const { organization } = await organizationWithAdmin(t)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get('/api/organizations/nope', { cookie: contact.cookie })).status).toBe(400)
    const response = await t.get(`/api/organizations/${organization.id}`, { cookie: contact.cookie })
    expect(response.status).toBe(403)
    expect((await response.json()).error.code).toBe('forbidden')
  })
})

describe('PATCH /api/organizations/{id}', () => {
  it('reads MEMBER by default; an ADMIN keeps stocktake scans to managers, then a MEMBER is refused', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const path = `/api/organizations/${organization.id}`
    expect(await (await t.get(path, { cookie: member.cookie })).json()).toMatchObject({
      stocktakeRole: 'MEMBER',
    })
    const listed = await (await t.get('/api/organizations', { cookie: admin.cookie })).json()
    expect(listed.data[0].stocktakeRole).toBe('MEMBER')
    const stocktakeId = await openStocktake(t, organization.id)
    const [keychain] = await keychainsAtHome(t, organization.id, [null])
    const scan = (cookie: string, deviceSeq: number) =>
      t.post(`/api/stocktakes/${stocktakeId}/scans`, {
        cookie,
        json: { value: keychain!.tag.code, deviceId: randomUUID(), deviceSeq },
        headers: { 'idempotency-key': randomUUID() },
      })
    expect((await scan(member.cookie, 1)).status).toBe(201)

    const response = await t.patch(path, { cookie: admin.cookie, json: { stocktakeRole: 'MANAGER' } })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      id: organization.id,
      name: 'Acme',
      stocktakeRole: 'MANAGER',
      role: 'ADMIN',
    })
    expect((await (await t.get(path, { cookie: member.cookie })).json()).stocktakeRole).toBe('MANAGER')
    const refused = await scan(member.cookie, 1)
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.code).toBe('forbidden')
    expect((await scan(manager.cookie, 1)).status).toBe(201)

    // Nothing sent changes nothing; ADMIN keeps even managers out.
    const unchanged = await t.patch(path, { cookie: admin.cookie, json: {} })
    expect((await unchanged.json()).stocktakeRole).toBe('MANAGER')
    await t.patch(path, { cookie: admin.cookie, json: { stocktakeRole: 'ADMIN' } })
    expect((await scan(manager.cookie, 1)).status).toBe(403)
    expect((await scan(admin.cookie, 1)).status).toBe(201)
  })

  it('refuses CONTACT and unknown settings (400), a foreign organization (404), a MANAGER (403)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const path = `/api/organizations/${organization.id}`
    const contact = await t.patch(path, { cookie: admin.cookie, json: { stocktakeRole: 'CONTACT' } })
    expect(contact.status).toBe(400)
    expect((await contact.json()).error).toMatchObject({
      code: 'validation_failed',
      message: 'Stocktake role must be ADMIN, MANAGER or MEMBER (a CONTACT never scans in stocktakes).',
    })
    expect((await t.patch(path, { cookie: admin.cookie, json: { name: 'Other' } })).status).toBe(400)
    expect((await t.patch(path, { cookie: admin.cookie, json: { stocktakeRole: null } })).status).toBe(400)
    const foreign = await createOrganization(t, 'Foreign')
    const elsewhere = await t.patch(`/api/organizations/${foreign.id}`, {
      cookie: admin.cookie,
      json: { stocktakeRole: 'ADMIN' },
    })
    expect(elsewhere.status).toBe(404)
    expect((await elsewhere.json()).error.code).toBe('not_found')
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const forbidden = await t.patch(path, { cookie: manager.cookie, json: { stocktakeRole: 'ADMIN' } })
    expect(forbidden.status).toBe(403)
    expect((await (await t.get(path, { cookie: admin.cookie })).json()).stocktakeRole).toBe('MEMBER')
    expect((await t.get(`/api/organizations/${foreign.id}`, { cookie: admin.cookie })).status).toBe(404)
  })
})

describe('handover receivers', () => {
  it('are members by default; an ADMIN lets contacts in, both ways, each setting alone', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const path = `/api/organizations/${organization.id}`
    expect(await (await t.get(path, { cookie: member.cookie })).json()).toMatchObject({
      handoverReceivers: 'MEMBERS',
      stocktakeRole: 'MEMBER',
    })
    const changed = await t.patch(path, {
      cookie: admin.cookie,
      json: { handoverReceivers: 'MEMBERS_AND_CONTACTS' },
    })
    expect(changed.status).toBe(200)
    expect(await changed.json()).toMatchObject({
      handoverReceivers: 'MEMBERS_AND_CONTACTS',
      stocktakeRole: 'MEMBER',
    })
    const listed = await (await t.get('/api/organizations', { cookie: member.cookie })).json()
    expect(listed.data[0].handoverReceivers).toBe('MEMBERS_AND_CONTACTS')
    await t.patch(path, { cookie: admin.cookie, json: { stocktakeRole: 'MANAGER' } })
    expect(await (await t.get(path, { cookie: admin.cookie })).json()).toMatchObject({
      handoverReceivers: 'MEMBERS_AND_CONTACTS',
      stocktakeRole: 'MANAGER',
    })
    const back = await t.patch(path, { cookie: admin.cookie, json: { handoverReceivers: 'MEMBERS' } })
    expect((await back.json()).handoverReceivers).toBe('MEMBERS')
  })

  it('refuses an unknown value (400) and anyone but an ADMIN (403)', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const path = `/api/organizations/${organization.id}`
    const unknown = await t.patch(path, { cookie: admin.cookie, json: { handoverReceivers: 'EVERYONE' } })
    expect(unknown.status).toBe(400)
    expect((await unknown.json()).error).toMatchObject({
      code: 'validation_failed',
      message: 'Handover receivers must be MEMBERS or MEMBERS_AND_CONTACTS.',
    })
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const refused = await t.patch(path, {
      cookie: manager.cookie,
      json: { handoverReceivers: 'MEMBERS_AND_CONTACTS' },
    })
    expect(refused.status).toBe(403)
    expect((await (await t.get(path, { cookie: admin.cookie })).json()).handoverReceivers).toBe('MEMBERS')
  })
})

describe('GET|PATCH /api/organizations/default', () => {
  it('answers {id: null} without a selection, and selects an organization the caller belongs to', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    expect(await (await t.get('/api/organizations/default', { cookie })).json()).toEqual({ id: null })
    const organization = await createOrganization(t)
    await addMember(t, {
      userId: profile.id,
      organizationId: organization.id,
      role: 'MEMBER',
      status: 'INVITED',
      select: false,
    })
    const response = await t.patch('/api/organizations/default', { cookie, json: { id: organization.id } })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ id: organization.id })
    expect((await (await t.get('/api/profile', { cookie })).json()).selectedOrganizationId).toBe(
      organization.id,
    )
  })

  it('answers 404 for an organization the caller does not belong to (or is disabled in), 400 for a bad id', async () => {
    const { admin } = await organizationWithAdmin(t)
    const foreign = await createOrganization(t, 'Foreign')
    const cookie = admin.cookie
    expect((await t.patch('/api/organizations/default', { cookie, json: { id: foreign.id } })).status).toBe(
      404,
    )
    const disabled = await createOrganization(t, 'Disabled')
    await addMember(t, {
      userId: admin.id,
      organizationId: disabled.id,
      role: 'ADMIN',
      status: 'DISABLED',
      select: false,
    })
    expect((await t.patch('/api/organizations/default', { cookie, json: { id: disabled.id } })).status).toBe(
      404,
    )
    const bad = await t.patch('/api/organizations/default', { cookie, json: { id: 'x' } })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toBe('Malformed id.')
  })
})

describe('GET /api/organizations/{id}/tags', () => {
  it('pages through the tags by code, filters unused ones and by text', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const tags = await makeTags(t, organization.id, 5, 'ORG')
    const cookie = admin.cookie
    const first = await (await t.get(`/api/organizations/${organization.id}/tags?limit=2`, { cookie })).json()
    expect(first.data.map((tag: { code: string }) => tag.code)).toEqual([tags[0]!.code, tags[1]!.code])
    expect(first.data[0].url).toBe(`${t.config.publicUrl}/tags/${tags[0]!.publicId}`)
    const second = await (
      await t.get(`/api/organizations/${organization.id}/tags?limit=2&cursor=${first.nextCursor}`, { cookie })
    ).json()
    expect(second.data.map((tag: { code: string }) => tag.code)).toEqual([tags[2]!.code, tags[3]!.code])
    const byText = await (
      await t.get(`/api/organizations/${organization.id}/tags?q=${tags[4]!.code.toLowerCase()}`, { cookie })
    ).json()
    expect(byText.data).toHaveLength(1)
    const unused = await (
      await t.get(`/api/organizations/${organization.id}/tags?unused=true`, { cookie })
    ).json()
    expect(unused.data).toHaveLength(5)
    expect(unused.nextCursor).toBeNull()
  })

  it('answers 404 for a foreign organization and 400 for a bad query', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const foreign = await createOrganization(t, 'Foreign')
    expect((await t.get(`/api/organizations/${foreign.id}/tags`, { cookie: admin.cookie })).status).toBe(404)
    const bad = await t.get(`/api/organizations/${organization.id}/tags?limit=500`, { cookie: admin.cookie })
    expect(bad.status).toBe(400)
    expect((await bad.json()).error.message).toBe('limit must be at most 100.')
    const badCursor = await t.get(`/api/organizations/${organization.id}/tags?cursor=zzz`, {
      cookie: admin.cookie,
    })
    expect(badCursor.status).toBe(400)
  })
})
