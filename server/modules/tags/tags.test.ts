import { describe, expect, it } from 'vitest'
import { TAG_PUBLIC_ID_PATTERN } from '../../../contract/tags.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { newPublicId } from './public-id.ts'
import { createTags } from './service.ts'

const t = setupTestApp()
const COLOURS = { foregroundColor: '#FFFFFF', backgroundColor: '#1D4ED8' }

describe('createTags', () => {
  it('numbers codes from the start number, with unguessable public ids', async () => {
    const { organization } = await organizationWithAdmin(t)
    const tags = await createTags(
      t.db,
      organization.id,
      { alphaCode: 'agc', startNumber: 41, count: 3, name: 'Agence', ...COLOURS },
      t.clock.now(),
    )
    expect(tags.map((tag) => tag.code)).toEqual(['AGC-00041', 'AGC-00042', 'AGC-00043'])
    expect(tags[0]).toMatchObject({ foregroundColor: '#ffffff', backgroundColor: '#1d4ed8', name: 'Agence' })
    for (const tag of tags) expect(tag.publicId).toMatch(TAG_PUBLIC_ID_PATTERN)
    expect(new Set(tags.map((tag) => tag.publicId)).size).toBe(3)
  })

  it('refuses overlapping codes in one organization (409) and creates none of the batch', async () => {
    const { organization } = await organizationWithAdmin(t)
    const batch = { alphaCode: 'DUP', startNumber: 10, count: 2, name: 'x', ...COLOURS }
    await createTags(t.db, organization.id, batch, t.clock.now())
    await expect(
      createTags(t.db, organization.id, { ...batch, startNumber: 11 }, t.clock.now()),
    ).rejects.toThrow('Some codes from DUP-00011 to DUP-00012 already exist.')
    const other = await organizationWithAdmin(t, 'Other')
    expect(await createTags(t.db, other.organization.id, batch, t.clock.now())).toHaveLength(2)
  })

  it('draws public ids evenly from the whole alphabet', () => {
    const seen = new Set(Array.from({ length: 200 }, () => newPublicId()).join(''))
    expect(seen.size).toBe(32)
  })
})

describe('GET /api/tags', () => {
  it('lists the tags of the selected organization only; 400 without a selection', async () => {
    const { organization } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const mine = await makeTags(t, organization.id, 2)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    await makeTags(t, foreign.organization.id, 2)
    const page = await (await t.get('/api/tags', { cookie: member.cookie })).json()
    expect(page.data.map((tag: { id: string }) => tag.id)).toEqual(mine.map((tag) => tag.id))
    const { cookie } = await t.signIn(uniqueEmail())
    expect((await t.get('/api/tags', { cookie })).status).toBe(400)
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get('/api/tags', { cookie: contact.cookie })).status).toBe(403)
    expect((await t.get('/api/tags?unused=maybe', { cookie: member.cookie })).status).toBe(400)
  })
})

describe('GET /api/tags/{publicId}', () => {
  async function taggedKeychain() {
    const { organization, admin } = await organizationWithAdmin(t, 'Agence Lumière')
    const custodian = await signedInMember(t, organization.id, 'MEMBER')
    const [tag] = await makeTags(t, organization.id)
    const keychain = await makeKeychain(t, organization.id, 'Cave', custodian.id)
    await t.post(`/api/keychains/${keychain.id}/keys`, {
      cookie: admin.cookie,
      json: { type: 'TAG', name: 'Porte', tagId: tag!.id },
    })
    return { organization, admin, custodian, tag: tag!, keychain }
  }

  it('shows a member the tag, its key, keychain and custodian, and their permissions', async () => {
    const { organization, custodian, tag, keychain } = await taggedKeychain()
    const response = await t.get(`/api/tags/${tag.publicId}`, { cookie: custodian.cookie })
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({
      view: 'member',
      tag: { code: tag.code, key: { name: 'Porte', keychainId: keychain.id } },
      keychain: { id: keychain.id, name: 'Cave', custodian: { id: custodian.id } },
      organization: { id: organization.id, name: 'Agence Lumière' },
      permissions: expect.arrayContaining(['read__keychain', 'pickup__transfer']),
    })
  })

  it('shows anyone else only the code and the organization name', async () => {
    const { organization, tag } = await taggedKeychain()
    const outsider = await organizationWithAdmin(t, 'Outsider')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    for (const cookie of [undefined, outsider.admin.cookie, contact.cookie]) {
      const response = await t.get(`/api/tags/${tag.publicId}`, { cookie })
      expect(response.status).toBe(200)
      const body = await response.json()
      expect(body).toEqual({ view: 'found', code: tag.code, organization: { name: 'Agence Lumière' } })
      expect(JSON.stringify(body)).not.toMatch(/Porte|Cave|rue de la Paix/)
    }
  })

  it('answers 404 for an unknown id and 400 for a malformed one', async () => {
    expect((await t.get(`/api/tags/${newPublicId()}`)).status).toBe(404)
    const malformed = await t.get('/api/tags/NOT-A-TAG')
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).error.message).toBe('Malformed tag id.')
  })
})
