import { describe, expect, it } from 'vitest'
import { makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'

const t = setupTestApp()

describe('GET /organizations/{id}/tags?q=', () => {
  it('finds tags by part of their code or name, and a whole code (any case) as that one tag', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Cherche')
    const tags = await makeTags(t, organization.id, 12, 'SRC')
    const codes = async (q: string) =>
      (
        (await (
          await t.get(`/api/organizations/${organization.id}/tags?q=${encodeURIComponent(q)}`, {
            cookie: admin.cookie,
          })
        ).json()) as { data: { code: string }[] }
      ).data.map((tag) => tag.code)
    const eleventh = tags[10]!.code
    expect(await codes(eleventh.toLowerCase())).toEqual([eleventh])
    expect(await codes(eleventh.slice(-3))).toContain(eleventh)
    expect((await codes('SRC-')).length).toBe(12)
    expect((await codes('test')).length).toBe(12)
    expect(await codes('ZZZ-99999')).toEqual([])
    expect(await codes('nothing like it')).toEqual([])
  })
})
