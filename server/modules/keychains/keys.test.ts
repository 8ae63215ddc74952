import { describe, expect, it } from 'vitest'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'

const t = setupTestApp()

async function world() {
  const { organization, admin } = await organizationWithAdmin(t)
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const keychain = await makeKeychain(t, organization.id, 'Cave')
  const tags = await makeTags(t, organization.id, 2)
  return { organization, admin, manager, keychain, tags }
}

describe('POST /api/keychains/{id}/keys', () => {
  it('adds a plain KEY and a TAG key, which then shows on the keychain, its summary and the tag', async () => {
    const { manager, keychain, tags } = await world()
    const cookie = manager.cookie
    const plain = await t.post(`/api/keychains/${keychain.id}/keys`, {
      cookie,
      json: { type: 'KEY', name: ' Porte ' },
    })
    expect(plain.status).toBe(201)
    expect(await plain.json()).toMatchObject({ name: 'Porte', type: 'KEY', tag: null })
    const tagged = await t.post(`/api/keychains/${keychain.id}/keys`, {
      cookie,
      json: { type: 'TAG', name: 'Badge', tagId: tags[0]!.id },
    })
    expect(tagged.status).toBe(201)
    expect(await tagged.json()).toMatchObject({
      type: 'TAG',
      tag: { id: tags[0]!.id, publicId: tags[0]!.publicId, code: tags[0]!.code, name: 'Test' },
    })
    const detail = await (await t.get(`/api/keychains/${keychain.id}`, { cookie })).json()
    expect(detail.keys.map((key: { name: string }) => key.name)).toEqual(['Porte', 'Badge'])
    const list = await (await t.get('/api/keychains', { cookie })).json()
    expect(list.data[0]).toMatchObject({ keyCount: 2, tagCodes: [tags[0]!.code] })
    const unused = await (await t.get('/api/tags?unused=true', { cookie })).json()
    expect(unused.data.map((tag: { id: string }) => tag.id)).toEqual([tags[1]!.id])
    const all = await (await t.get('/api/tags', { cookie })).json()
    expect(all.data[0].key).toMatchObject({ name: 'Badge', keychainId: keychain.id, keychainName: 'Cave' })
  })

  it('refuses a tag already on a key (409), a tag of another organization (400), and a TAG without tagId', async () => {
    const { manager, keychain, tags } = await world()
    const cookie = manager.cookie
    const add = (json: unknown) => t.post(`/api/keychains/${keychain.id}/keys`, { cookie, json })
    expect((await add({ type: 'TAG', name: 'A', tagId: tags[0]!.id })).status).toBe(201)
    const taken = await add({ type: 'TAG', name: 'B', tagId: tags[0]!.id })
    expect(taken.status).toBe(409)
    expect((await taken.json()).error).toEqual({
      code: 'tag_taken',
      message: 'This tag is already on a key.',
    })
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const [theirTag] = await makeTags(t, foreign.organization.id)
    const elsewhere = await add({ type: 'TAG', name: 'C', tagId: theirTag!.id })
    expect(elsewhere.status).toBe(400)
    expect((await elsewhere.json()).error.message).toBe('No such tag in this organization.')
    expect((await add({ type: 'TAG', name: 'D' })).status).toBe(400)
    expect((await add({ type: 'KEY', name: 'E', tagId: tags[1]!.id })).status).toBe(400)
    const badType = await add({ type: 'CARD', name: 'F' })
    expect((await badType.json()).error.message).toBe('Type must be TAG or KEY.')
    expect((await add({ type: 'KEY', name: '' })).status).toBe(400)
  })

  it('lets one of two keys racing for one tag win', async () => {
    const { manager, keychain, tags } = await world()
    const results = await Promise.all(
      ['A', 'B'].map((name) =>
        t.post(`/api/keychains/${keychain.id}/keys`, {
          cookie: manager.cookie,
          json: { type: 'TAG', name, tagId: tags[1]!.id },
        }),
      ),
    )
    expect(results.map((response) => response.status).sort()).toEqual([201, 409])
  })

  it("answers 404 on another organization's keychain", async () => {
    const { manager } = await world()
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const theirs = await makeKeychain(t, foreign.organization.id)
    const response = await t.post(`/api/keychains/${theirs.id}/keys`, {
      cookie: manager.cookie,
      json: { type: 'KEY', name: 'Mine' },
    })
    expect(response.status).toBe(404)
  })
})

describe('PATCH|DELETE /api/keychains/{id}/keys/{keyId}', () => {
  it('renames and removes a key; removing a TAG key frees its tag, deleting the keychain frees all', async () => {
    const { manager, keychain, tags } = await world()
    const cookie = manager.cookie
    const key = await (
      await t.post(`/api/keychains/${keychain.id}/keys`, {
        cookie,
        json: { type: 'TAG', name: 'A', tagId: tags[0]!.id },
      })
    ).json()
    const renamed = await t.patch(`/api/keychains/${keychain.id}/keys/${key.id}`, {
      cookie,
      json: { name: 'Entrée' },
    })
    expect(renamed.status).toBe(200)
    expect(await renamed.json()).toMatchObject({ id: key.id, name: 'Entrée', type: 'TAG' })
    expect((await t.delete(`/api/keychains/${keychain.id}/keys/${key.id}`, { cookie })).status).toBe(204)
    expect((await (await t.get('/api/tags?unused=true', { cookie })).json()).data).toHaveLength(2)

    await t.post(`/api/keychains/${keychain.id}/keys`, {
      cookie,
      json: { type: 'TAG', name: 'B', tagId: tags[1]!.id },
    })
    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie })).status).toBe(204)
    expect((await (await t.get('/api/tags?unused=true', { cookie })).json()).data).toHaveLength(2)
  })

  it('answers 404 for a key of another keychain or organization, 400 for bad input', async () => {
    const { organization, manager, keychain } = await world()
    const cookie = manager.cookie
    const other = await makeKeychain(t, organization.id, 'Other')
    const key = await (
      await t.post(`/api/keychains/${other.id}/keys`, { cookie, json: { type: 'KEY', name: 'K' } })
    ).json()
    expect(
      (await t.patch(`/api/keychains/${keychain.id}/keys/${key.id}`, { cookie, json: { name: 'X' } })).status,
    ).toBe(404)
    expect((await t.delete(`/api/keychains/${keychain.id}/keys/${key.id}`, { cookie })).status).toBe(404)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    expect(
      (
        await t.patch(`/api/keychains/${other.id}/keys/${key.id}`, {
          cookie: foreign.admin.cookie,
          json: { name: 'X' },
        })
      ).status,
    ).toBe(404)
    expect(
      (await t.patch(`/api/keychains/${other.id}/keys/${key.id}`, { cookie, json: { name: '' } })).status,
    ).toBe(400)
    expect(
      (await t.patch(`/api/keychains/${other.id}/keys/${key.id}`, { cookie, json: { type: 'TAG' } })).status,
    ).toBe(400)
    expect((await t.delete(`/api/keychains/${other.id}/keys/nope`, { cookie })).status).toBe(400)
  })
})
