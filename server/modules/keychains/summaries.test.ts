// The key count and tag codes a keychain carries for GET /keychains (migration 0014's triggers on keys) stay
// equal to a recount of its keys through every kind of write: one key, several in one statement, a key that
// moves or changes tag, a rename, a removal, a keychain's deletion, and two transactions adding keys at once.
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain, makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { untilALockIsAwaited } from '../../../tests/server/locks.ts'
import { keychains, keys } from '../../db/schema.ts'

const t = setupTestApp()

type Summary = { keyCount: number; tagCodes: string[] }

async function stored(keychainId: string): Promise<Summary> {
  const [row] = await t.db
    .select({ keyCount: keychains.keyCount, tagCodes: keychains.tagCodes })
    .from(keychains)
    .where(eq(keychains.id, keychainId))
  // Kept in code order by the triggers (migration 0027): the list sends the column as it is.
  return { keyCount: row!.keyCount, tagCodes: row!.tagCodes }
}

async function recounted(keychainId: string): Promise<Summary> {
  const result = (await t.db.execute(sql`
    select count(*)::int as "keyCount", coalesce(array_agg(tags.code) filter (where tags.code is not null), '{}') as "tagCodes"
    from keys left join tags on tags.id = keys.tag_id where keys.keychain_id = ${keychainId}`)) as unknown as {
    rows: Summary[]
  }
  const row = result.rows[0]!
  return { keyCount: row.keyCount, tagCodes: [...row.tagCodes].sort() }
}

async function expectInStep(keychainId: string, expected: Summary) {
  expect(await stored(keychainId)).toEqual(expected)
  expect(await recounted(keychainId)).toEqual(expected)
}

async function world() {
  const { organization, admin } = await organizationWithAdmin(t)
  const cave = await makeKeychain(t, organization.id, 'Cave')
  const attic = await makeKeychain(t, organization.id, 'Grenier')
  const tags = await makeTags(t, organization.id, 3)
  return { organization, admin, cave, attic, tags }
}

const keyRow = (keychainId: string, name: string, tagId: string | null = null) => ({
  keychainId,
  name,
  type: tagId ? ('TAG' as const) : ('KEY' as const),
  tagId,
  createdAt: t.clock.now(),
})

describe('the keychain summaries GET /keychains shows', () => {
  it('follow keys added and removed through the API, and the list answers them', async () => {
    const { admin, cave, tags } = await world()
    const cookie = admin.cookie
    await expectInStep(cave.id, { keyCount: 0, tagCodes: [] })
    const porte = await (
      await t.post(`/api/keychains/${cave.id}/keys`, { cookie, json: { type: 'KEY', name: 'Porte' } })
    ).json()
    await t.post(`/api/keychains/${cave.id}/keys`, {
      cookie,
      json: { type: 'TAG', name: 'Badge', tagId: tags[1]!.id },
    })
    await t.post(`/api/keychains/${cave.id}/keys`, {
      cookie,
      json: { type: 'TAG', name: 'Bip', tagId: tags[0]!.id },
    })
    await t.post(`/api/keychains/${cave.id}/keys`, {
      cookie,
      json: { type: 'TAG', name: 'Carte', tagId: tags[2]!.id },
    })
    const codes = tags.map((tag) => tag.code)
    expect(codes).toEqual([...codes].sort())
    await expectInStep(cave.id, { keyCount: 4, tagCodes: codes })
    const list = await (await t.get('/api/keychains', { cookie })).json()
    expect(list.data.find((row: { id: string }) => row.id === cave.id)).toMatchObject({
      keyCount: 4,
      tagCodes: codes,
    })

    const badge = (await (await t.get(`/api/keychains/${cave.id}`, { cookie })).json()).keys.find(
      (key: { name: string }) => key.name === 'Badge',
    )
    expect((await t.delete(`/api/keychains/${cave.id}/keys/${badge.id}`, { cookie })).status).toBe(204)
    expect((await t.delete(`/api/keychains/${cave.id}/keys/${porte.id}`, { cookie })).status).toBe(204)
    await expectInStep(cave.id, { keyCount: 2, tagCodes: [codes[0]!, codes[2]!] })
  })

  it('follow several keys inserted in one statement across keychains, and the keys deleted with their keychain', async () => {
    const { cave, attic, tags } = await world()
    await t.db
      .insert(keys)
      .values([
        keyRow(cave.id, 'A'),
        keyRow(cave.id, 'B', tags[0]!.id),
        keyRow(attic.id, 'C', tags[1]!.id),
        keyRow(attic.id, 'D', tags[2]!.id),
        keyRow(attic.id, 'E'),
      ])
    await expectInStep(cave.id, { keyCount: 2, tagCodes: [tags[0]!.code] })
    await expectInStep(attic.id, { keyCount: 3, tagCodes: [tags[1]!.code, tags[2]!.code].sort() })
    await t.db.delete(keys).where(eq(keys.keychainId, attic.id))
    await expectInStep(attic.id, { keyCount: 0, tagCodes: [] })
    await expectInStep(cave.id, { keyCount: 2, tagCodes: [tags[0]!.code] })
    // A keychain's deletion cascades to its keys: the others are untouched and nothing fails.
    await t.db.insert(keys).values(keyRow(attic.id, 'F', tags[1]!.id))
    await t.db.delete(keychains).where(eq(keychains.id, attic.id))
    await expectInStep(cave.id, { keyCount: 2, tagCodes: [tags[0]!.code] })
  })

  it('follow a key that moves to another keychain or changes tag, and ignore a rename', async () => {
    const { cave, attic, tags } = await world()
    const [moving] = await t.db
      .insert(keys)
      .values([keyRow(cave.id, 'Moving', tags[0]!.id), keyRow(cave.id, 'Staying')])
      .returning()
    await t.db.update(keys).set({ keychainId: attic.id }).where(eq(keys.id, moving!.id))
    await expectInStep(cave.id, { keyCount: 1, tagCodes: [] })
    await expectInStep(attic.id, { keyCount: 1, tagCodes: [tags[0]!.code] })
    await t.db.update(keys).set({ tagId: tags[2]!.id }).where(eq(keys.id, moving!.id))
    await expectInStep(attic.id, { keyCount: 1, tagCodes: [tags[2]!.code] })
    await t.db.update(keys).set({ name: 'Renamed' }).where(eq(keys.keychainId, cave.id))
    await t.db.update(keys).set({ name: 'Renamed too', tagId: tags[2]!.id }).where(eq(keys.id, moving!.id))
    await expectInStep(cave.id, { keyCount: 1, tagCodes: [] })
    await expectInStep(attic.id, { keyCount: 1, tagCodes: [tags[2]!.code] })
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('two transactions adding keys to one keychain at once', () => {
  it('count both keys: the second waits for the first and adds to what it committed', async () => {
    const { cave, tags } = await world()
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let inserted: () => void = () => {}
    const first = new Promise<void>((resolve) => {
      inserted = resolve
    })
    const holder = t.db.transaction(async (tx) => {
      await tx.insert(keys).values(keyRow(cave.id, 'First', tags[0]!.id))
      inserted()
      await released
    })
    await first
    const second = t.db.transaction((tx) => tx.insert(keys).values(keyRow(cave.id, 'Second', tags[1]!.id)))
    await untilALockIsAwaited(t)
    release()
    await Promise.all([holder, second])
    await expectInStep(cave.id, { keyCount: 2, tagCodes: [tags[0]!.code, tags[1]!.code].sort() })
  })
})
