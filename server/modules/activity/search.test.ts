// The activity log's search (`q`): words found in what an entry names — its keychains (their name now, or the
// name the entry recorded), its keys, its tags (code or name), the person who did it — in the list and the
// CSV export alike, never another organization's entries.
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { users } from '../../db/schema.ts'
import { SIGNED_HEAD_ROW } from './export-columns.ts'

const t = setupTestApp()

type Entry = { seq: number; kind: string; payload: Record<string, unknown> }

async function organizationAtWork(name: string) {
  const { organization, admin } = await organizationWithAdmin(t, name)
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  await t.db.update(users).set({ firstName: 'Léa', lastName: 'Martin' }).where(eq(users.id, manager.id))
  const create = async (cookie: string, keychainName: string) =>
    (await (await t.post('/api/keychains', { cookie, json: { name: keychainName } })).json()) as {
      id: string
    }
  const flat = await create(admin.cookie, 'Appartement 12 – rue Daguerre')
  const cellar = await create(manager.cookie, 'Cave 100%_brute')
  const [tag] = await makeTags(t, organization.id, 1, 'SRC')
  await t.post(`/api/keychains/${cellar.id}/keys`, {
    cookie: admin.cookie,
    json: { type: 'TAG', name: 'Portail', tagId: tag!.id },
  })
  const attic = await create(admin.cookie, 'Grenier 7')
  await t.delete(`/api/keychains/${attic.id}`, { cookie: admin.cookie })
  return { organization, admin, manager, flat, cellar, tag: tag!, attic }
}

async function search(cookie: string, q: string): Promise<Entry[]> {
  const response = await t.get(`/api/activity?q=${encodeURIComponent(q)}&limit=100`, { cookie })
  expect(response.status).toBe(200)
  return ((await response.json()) as { data: Entry[] }).data
}

const kinds = (entries: Entry[]) => entries.map((entry) => entry.kind)

describe('searching the activity log', () => {
  it('finds the entries of a keychain by its name, whatever the case, and nothing of another organization', async () => {
    const { admin } = await organizationAtWork('Agence')
    await organizationAtWork('Voisins') // the same names, in another organization
    const found = await search(admin.cookie, 'APPARTEMENT 12')
    expect(kinds(found)).toEqual(['keychain.created'])
    expect(found[0]!.payload).toMatchObject({ name: 'Appartement 12 – rue Daguerre' })
  })

  it("finds a keychain's entries through its tag's code, a key's name, and a deleted keychain by the name it had", async () => {
    const { admin, tag } = await organizationAtWork('Agence')
    expect(kinds(await search(admin.cookie, tag.code.toLowerCase()))).toEqual(['key.added', 'tags.created'])
    expect(kinds(await search(admin.cookie, 'portail'))).toEqual(['key.added'])
    expect(kinds(await search(admin.cookie, 'grenier'))).toEqual(['keychain.deleted', 'keychain.created'])
  })

  it('finds what a person did by their name or e-mail address', async () => {
    const { admin, manager } = await organizationAtWork('Agence')
    expect(kinds(await search(admin.cookie, 'léa mar'))).toEqual(['keychain.created'])
    expect(kinds(await search(admin.cookie, manager.email.slice(0, 12)))).toEqual(['keychain.created'])
  })

  it('takes % and _ as the characters they are, and an empty search as none', async () => {
    const { admin } = await organizationAtWork('Agence')
    expect(kinds(await search(admin.cookie, '100%_'))).toEqual(['key.added', 'keychain.created'])
    expect(await search(admin.cookie, '10_%')).toEqual([])
    const everything = await search(admin.cookie, '   ')
    expect(everything.length).toBeGreaterThan(5)
  })

  it('exports the entries the search finds, and refuses a search of more than 100 characters', async () => {
    const { admin } = await organizationAtWork('Agence')
    const csv = await (await t.get('/api/activity/export?q=grenier', { cookie: admin.cookie })).text()
    const records = parse(csv, { columns: true }) as Array<{ kind: string }>
    expect(records.map((record) => record.kind)).toEqual([
      'keychain.deleted',
      'keychain.created',
      SIGNED_HEAD_ROW,
    ])
    const tooLong = await t.get(`/api/activity?q=${'x'.repeat(101)}`, { cookie: admin.cookie })
    expect(tooLong.status).toBe(400)
    expect(await tooLong.json()).toMatchObject({
      error: { code: 'validation_failed', message: 'Search at most 100 characters.' },
    })
  })
})
