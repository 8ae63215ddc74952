import { describe, expect, it } from 'vitest'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { addTagKey } from '../../../tests/server/transfers.ts'

const t = setupTestApp()

type Page = { data: Array<{ code: string }>; nextCursor: string | null }

/** Every code of every page of the list at `path` (pages of `limit`). */
async function codes(path: string, cookie: string, limit = 2) {
  const seen: string[] = []
  let cursor: string | null = null
  do {
    const separator = path.includes('?') ? '&' : '?'
    const response = await t.get(
      `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { cookie },
    )
    expect(response.status).toBe(200)
    const page = (await response.json()) as Page
    seen.push(...page.data.map((tag) => tag.code))
    cursor = page.nextCursor
  } while (cursor)
  return seen
}

async function taggedOrganization() {
  const { organization, admin } = await organizationWithAdmin(t, 'Étiquettes')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const tags = await makeTags(t, organization.id, 5, 'USE')
  const keychain = await makeKeychain(t, organization.id, 'Cave')
  await addTagKey(t, keychain.id, tags[1]!.id, 'Porte')
  await addTagKey(t, keychain.id, tags[3]!.id, 'Grille')
  const code = (index: number) => tags[index]!.code
  return { organization, admin, member, tags, code }
}

describe('GET /api/tags?use= (issue 23: the tags page’s free/used filter)', () => {
  it('keeps free tags (on no key) or used ones, in code order, page after page, with a code search', async () => {
    const { member, code } = await taggedOrganization()
    expect(await codes('/api/tags?use=free', member.cookie)).toEqual([code(0), code(2), code(4)])
    expect(await codes('/api/tags?use=used', member.cookie)).toEqual([code(1), code(3)])
    expect(await codes('/api/tags', member.cookie)).toEqual([0, 1, 2, 3, 4].map(code))
    // A whole code, or part of one, with the filter.
    expect(await codes(`/api/tags?use=used&q=${code(3)}`, member.cookie)).toEqual([code(3)])
    expect(await codes(`/api/tags?use=free&q=${code(3)}`, member.cookie)).toEqual([])
    const part = code(2).slice(-3).toLowerCase()
    expect(await codes(`/api/tags?use=free&q=${part}`, member.cookie)).toEqual([code(2)])
    // `use=free` is `unused=true`.
    expect(await codes('/api/tags?unused=true', member.cookie)).toEqual(
      await codes('/api/tags?use=free', member.cookie),
    )
  })

  it('answers 400 for an unknown filter, 403 to a CONTACT, 404 for another organization’s list', async () => {
    const { organization, member } = await taggedOrganization()
    const bad = await t.get('/api/tags?use=lost', { cookie: member.cookie })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(await bad.json())).toContain('use must be free or used.')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get('/api/tags?use=free', { cookie: contact.cookie })).status).toBe(403)
    const other = await organizationWithAdmin(t, 'Voisine')
    expect(
      (await t.get(`/api/organizations/${other.organization.id}/tags?use=used`, { cookie: member.cookie }))
        .status,
    ).toBe(404)
    expect(await codes(`/api/organizations/${organization.id}/tags?use=used`, member.cookie)).toHaveLength(2)
  })
})
