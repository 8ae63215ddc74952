import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { LABEL_PRINT_MAX } from '../../../contract/labels.ts'
import { makeKeychain, makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp, TEST_PUBLIC_URL } from '../../../tests/server/harness.ts'
import { keys, tags } from '../../db/schema.ts'

const t = setupTestApp()

type Label = { id: string; code: string; name: string; url: string }

async function sheet(cookie: string, selection: object, format = 'avery-l7160') {
  const response = await t.post('/api/tag-labels', { cookie, json: { format, selection } })
  expect(response.status).toBe(200)
  const body = (await response.json()) as { format: string; labels: Label[] }
  expect(body.format).toBe(format)
  return body.labels
}

describe('POST /tag-labels (the print view’s labels)', () => {
  it('answers each chosen tag once, in code order, with its code, name, colours and the URL its QR opens', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const made = await makeTags(t, organization.id, 3, 'SHT')
    await t.db.update(tags).set({ name: 'Cave du fond' }).where(eq(tags.id, made[1]!.id))
    const [first, second, third] = made
    const labels = await sheet(admin.cookie, {
      by: 'ids',
      ids: [third!.id, first!.id, third!.id, second!.id],
    })
    expect(labels).toEqual(
      [first!, { ...second!, name: 'Cave du fond' }, third!].map((tag) => ({
        id: tag.id,
        code: tag.code,
        name: tag.name,
        url: `${TEST_PUBLIC_URL}/tags/${tag.publicId}`,
        foregroundColor: '#111111',
        backgroundColor: '#ffee00',
      })),
    )
  })

  it('answers 404, saying so, when a chosen tag is not the organization’s', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const [mine] = await makeTags(t, organization.id, 1, 'OWN')
    const [theirs] = await makeTags(t, other.organization.id, 1, 'OTR')
    const response = await t.post('/api/tag-labels', {
      cookie: admin.cookie,
      json: { format: 'a4-sheet', selection: { by: 'ids', ids: [mine!.id, theirs!.id] } },
    })
    expect(response.status).toBe(404)
    expect((await response.json()).error.message).toBe('Some of these tags do not exist.')
  })

  it('selects as the tags list does: an exact code, part of a code or a name in any case, unused or not', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const made = await makeTags(t, organization.id, 3, 'QQA')
    const [onKey, plain, named] = made
    await makeTags(t, organization.id, 1, 'ZZB')
    await t.db.update(tags).set({ name: 'Grenier Nord' }).where(eq(tags.id, named!.id))
    // A name that holds another tag's code: a search by that code still finds the code alone.
    await t.db
      .update(tags)
      .set({ name: `Ancien ${plain!.code}` })
      .where(eq(tags.id, onKey!.id))
    const keychain = await makeKeychain(t, organization.id, 'Used')
    await t.db.insert(keys).values({
      keychainId: keychain.id,
      name: 'On a key',
      type: 'TAG',
      tagId: onKey!.id,
      createdAt: t.clock.now(),
    })
    const codes = async (selection: object) =>
      (await sheet(admin.cookie, { by: 'filter', ...selection })).map((label) => label.code)
    const all = made.map((tag) => tag.code)
    expect(await codes({ q: `  ${plain!.code.toLowerCase()} ` })).toEqual([plain!.code])
    expect(await codes({ q: 'grenier' })).toEqual([named!.code])
    expect(await codes({ q: 'NORD' })).toEqual([named!.code])
    expect(await codes({ q: 'qqa' })).toEqual(all)
    expect(await codes({ q: 'qqa', unused: 'true' })).toEqual([plain!.code, named!.code])
    expect(await codes({ q: 'qqa', unused: 'false' })).toEqual(all)
    expect(await codes({ unused: 'true' })).toHaveLength(3)
    expect(await codes({})).toHaveLength(4)
  })

  it(`prints exactly ${LABEL_PRINT_MAX} matching tags, the most a reprint takes`, async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    await makeTags(t, organization.id, LABEL_PRINT_MAX, 'MAX')
    const labels = await sheet(admin.cookie, { by: 'filter', q: 'MAX' }, 'a4-sheet')
    expect(labels).toHaveLength(LABEL_PRINT_MAX)
  })
})
