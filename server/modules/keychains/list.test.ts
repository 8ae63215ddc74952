// Issue 23: the keychain list answers at a glance — natural order on both databases, a status per row and a
// filter by status, search by name, tag code and holder, and soft deletion with a restore.
import { eq, sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import type { SyncPage } from '../../../contract/sync.ts'
import { DAY } from '../../../tests/server/clock.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { addTagKey, makeTransfer, parisDay } from '../../../tests/server/transfers.ts'
import { keychains, users } from '../../db/schema.ts'

const t = setupTestApp()

type Page = { data: KeychainSummary[]; nextCursor: string | null; tagMatch: string | null }

async function list(cookie: string, query: Record<string, string> = {}): Promise<Page> {
  const response = await t.get(`/api/keychains?${new URLSearchParams(query)}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as Page
}

/** Every page, `limit` rows at a time, following the cursors. */
async function all(
  cookie: string,
  query: Record<string, string> = {},
  limit = 2,
): Promise<KeychainSummary[]> {
  const rows: KeychainSummary[] = []
  let cursor: string | null = null
  for (let guard = 0; guard < 50; guard += 1) {
    const page: Page = await list(cookie, { ...query, limit: String(limit), ...(cursor ? { cursor } : {}) })
    rows.push(...page.data)
    cursor = page.nextCursor
    if (!cursor) return rows
  }
  throw new Error('the list never ended')
}

const names = (rows: KeychainSummary[]) => rows.map((row) => row.name)

describe('GET /api/keychains: natural order', () => {
  it('orders names as people read them ("Bureau 2" before "Bureau 18"), any case and accent, page after page', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const name of [
      'Bureau 18',
      'bureau 2',
      'Bureau 10',
      'Écurie 1',
      'atelier',
      'Bureau 2 bis',
      'Cave 007',
      'Cave 7b',
      'Zone',
      'Entrée 3',
    ])
      await makeKeychain(t, organization.id, name)
    const expected = [
      'atelier',
      'bureau 2',
      'Bureau 2 bis',
      'Bureau 10',
      'Bureau 18',
      'Cave 007',
      'Cave 7b',
      'Écurie 1',
      'Entrée 3',
      'Zone',
    ]
    expect(names(await all(admin.cookie))).toEqual(expected)
    expect(names(await all(admin.cookie, {}, 3))).toEqual(expected)
    expect(names((await list(admin.cookie)).data)).toEqual(expected)
    expect(names(await all(admin.cookie, { sort: 'name' }, 4))).toEqual(expected)
  })

  it('the sort key is computed by the database the same way for every writer, and follows a rename', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const made = await makeKeychain(t, organization.id, 'Bureau 9')
    await t.db.execute(
      sql`insert into keychains (organization_id, name, created_at, updated_at) values (${organization.id}, 'BUREAU 10', now(), now())`,
    )
    const [row] = await t.db
      .select({ sortName: keychains.sortName })
      .from(keychains)
      .where(eq(keychains.id, made.id))
    expect(row!.sortName).toBe('bureau 000000000009')
    expect(names(await all(admin.cookie))).toEqual(['Bureau 9', 'BUREAU 10'])
    const renamed = await t.patch(`/api/keychains/${made.id}`, {
      cookie: admin.cookie,
      json: { name: 'Bureau 11' },
    })
    expect(renamed.status).toBe(200)
    expect(names(await all(admin.cookie))).toEqual(['BUREAU 10', 'Bureau 11'])
    const result = (await t.db.execute(
      sql`select keychain_sort_key('Ÿvé 1234567890123 x 5') as key`,
    )) as unknown as {
      rows: { key: string }[]
    }
    expect(result.rows[0]!.key).toBe('yve 1234567890123 x 000000000005')
  })

  it('sorts by holder (natural order of their name, nobody last, then the name) and by last change, newest first', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const zoe = await signedInMember(t, organization.id, 'MEMBER')
    const albert = await signedInMember(t, organization.id, 'MEMBER')
    await t.db.update(users).set({ firstName: 'Zoé', lastName: 'Martin' }).where(eq(users.id, zoe.id))
    await t.db.update(users).set({ firstName: 'albert', lastName: 'Durand' }).where(eq(users.id, albert.id))
    await makeKeychain(t, organization.id, 'Cave 10', zoe.id)
    await makeKeychain(t, organization.id, 'Cave 2', undefined)
    await makeKeychain(t, organization.id, 'Cave 3', albert.id)
    await makeKeychain(t, organization.id, 'Cave 1', zoe.id)
    expect(names(await all(admin.cookie, { sort: 'holder' }))).toEqual([
      'Cave 3',
      'Cave 1',
      'Cave 10',
      'Cave 2',
    ])
    // A holder renamed moves their keychains.
    await t.db.update(users).set({ firstName: 'Aaron' }).where(eq(users.id, zoe.id))
    expect(names(await all(admin.cookie, { sort: 'holder' }))).toEqual([
      'Cave 1',
      'Cave 10',
      'Cave 3',
      'Cave 2',
    ])

    const ids = await all(admin.cookie)
    const cave2 = ids.find((row) => row.name === 'Cave 2')!
    t.clock.advance(60_000)
    await t.patch(`/api/keychains/${cave2.id}`, { cookie: admin.cookie, json: { name: 'Cave 2b' } })
    const changed = names(await all(admin.cookie, { sort: 'changed' }))
    expect(changed[0]).toBe('Cave 2b')
    expect(changed).toHaveLength(4)
  })

  it('answers 400 for an unknown sort or status, and for a cursor of another order', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const name of ['A', 'B', 'C']) await makeKeychain(t, organization.id, name)
    for (const query of ['sort=size', 'status=lost', 'sort=', 'status=DELETED']) {
      const response = await t.get(`/api/keychains?${query}`, { cookie: admin.cookie })
      expect(response.status).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
    const byName = await list(admin.cookie, { limit: '1' })
    const wrong = await t.get(`/api/keychains?sort=changed&cursor=${byName.nextCursor}`, {
      cookie: admin.cookie,
    })
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error.message).toBe('Malformed cursor.')
  })
})

describe('GET /api/keychains: cursors and pages', () => {
  const cursorOf = (key: string[]) => Buffer.from(JSON.stringify(key)).toString('base64url')
  const at = '2030-01-15T10:00:00.000Z'
  const id = '00000000-0000-4000-8000-000000000000'

  it('answers 400 for a cursor of another order, or with a row id or instant that is not one, on every order', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    await makeKeychain(t, organization.id, 'Cave')
    const refused: Array<[string, string[]]> = [
      ['', ['c', at, id]],
      ['', ['n', 'Cave', 'not-a-uuid']],
      ['q=cave', ['n', 'Cave', 'not-a-uuid']],
      ['q=cave', ['c', 'Cave', id]],
      ['sort=holder', ['n', 'Cave', id, 'x']],
      ['sort=holder', ['h', 'Cave', 'Cave', 'not-a-uuid']],
      ['sort=changed', ['c', at, 'not-a-uuid']],
      ['status=deleted', ['d', at, 'not-a-uuid']],
      ['sort=changed', ['d', at, id]],
      ['sort=changed', ['c', 'not-an-instant', id]],
      ['status=deleted', ['c', at, id]],
      ['status=deleted', ['d', 'not-an-instant', id]],
    ]
    for (const [query, key] of refused) {
      const response = await t.get(`/api/keychains?${query}&cursor=${cursorOf(key)}`, {
        cookie: admin.cookie,
      })
      expect(response.status, `${query} ${key.join()}`).toBe(400)
      expect((await response.json()).error.message).toBe('Malformed cursor.')
    }
    // The same shapes with this order's letter and well-formed values are pages.
    for (const [query, key] of [
      ['', ['n', 'Cave', id]],
      ['q=cave', ['n', 'Cave', id]],
      ['sort=holder', ['h', 'Cave', 'Cave', id]],
      ['sort=changed', ['c', at, id]],
      ['status=deleted', ['d', at, id]],
    ] as const) {
      const response = await t.get(`/api/keychains?${query}&cursor=${cursorOf([...key])}`, {
        cookie: admin.cookie,
      })
      expect(response.status, query).toBe(200)
    }
  })

  it('ends on a page exactly full, in every order: no cursor after the last row', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const name of ['Cave 1', 'Cave 2', 'Cave 3']) await makeKeychain(t, organization.id, name)
    for (const name of ['Vieux 1', 'Vieux 2', 'Vieux 3']) {
      const old = await makeKeychain(t, organization.id, name)
      expect((await t.delete(`/api/keychains/${old.id}`, { cookie: admin.cookie })).status).toBe(204)
    }
    const orders: Array<Record<string, string>> = [
      {},
      { q: 'cave' },
      { sort: 'holder' },
      { sort: 'changed' },
      { status: 'deleted' },
    ]
    for (const query of orders) {
      const full = await list(admin.cookie, { ...query, limit: '3' })
      expect(full.data, JSON.stringify(query)).toHaveLength(3)
      expect(full.nextCursor, JSON.stringify(query)).toBeNull()
      const first = await list(admin.cookie, { ...query, limit: '2' })
      const rest = await list(admin.cookie, { ...query, limit: '2', cursor: first.nextCursor ?? '' })
      expect(rest.data, JSON.stringify(query)).toHaveLength(1)
      expect(rest.nextCursor).toBeNull()
    }
  })

  it('reads the plain pages through the statement written for their size, any other page through its own', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const name of ['Cave 1', 'Cave 2', 'Cave 3']) await makeKeychain(t, organization.id, name)
    const statementOf = async (query: string) => {
      const run = await statementsOf(() => t.get(`/api/keychains?${query}`, { cookie: admin.cookie }))
      expect(run.result.status, query).toBe(200)
      const listed = run.statements.filter((text) => text.includes('json_build_object'))
      expect(listed, query).toHaveLength(1)
      return listed[0]!
    }
    const first = await list(admin.cookie, { limit: '2' })
    for (const query of ['limit=2', `limit=2&cursor=${first.nextCursor}`, 'limit=2&sort=name']) {
      expect(await statementOf(query), query).toMatch(/ limit 3$/)
    }
    for (const query of [
      'limit=2&q=cave',
      'limit=2&sort=changed',
      'limit=2&status=free',
      `limit=2&custodianId=${id}`,
    ]) {
      expect(await statementOf(query), query).toMatch(/ limit \$\d+$/)
    }
  })
})

describe('GET /api/keychains: status per row and status filters', () => {
  it('says free, held, scheduled, out or overdue with the due date, and filters by each and by no holder', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    const free = await makeKeychain(t, organization.id, 'Free')
    const held = await makeKeychain(t, organization.id, 'Held', member.id)
    const scheduled = await makeKeychain(t, organization.id, 'Scheduled', member.id)
    const out = await makeKeychain(t, organization.id, 'Out', contact.id)
    const overdue = await makeKeychain(t, organization.id, 'Overdue', contact.id)
    const lapsed = await makeKeychain(t, organization.id, 'Lapsed')
    const base = { organizationId: organization.id, recipientId: contact.id }
    await makeTransfer(t, {
      ...base,
      keychainId: scheduled.id,
      fromDate: parisDay(t, 1),
      toDate: parisDay(t, 3),
    })
    const outTransfer = await makeTransfer(t, {
      ...base,
      keychainId: out.id,
      status: 'TRANSFERRED',
      toDate: parisDay(t, 4),
    })
    await makeTransfer(t, {
      ...base,
      keychainId: overdue.id,
      status: 'TRANSFERRED',
      fromDate: parisDay(t, -5),
      toDate: parisDay(t, -2),
    })
    // A SCHEDULED transfer whose window has passed (expired) concerns the keychain no more.
    await makeTransfer(t, {
      ...base,
      keychainId: lapsed.id,
      fromDate: parisDay(t, -5),
      toDate: parisDay(t, -2),
    })

    const rows = await all(admin.cookie, {}, 10)
    const statusOf = Object.fromEntries(rows.map((row) => [row.name, row.status]))
    expect(statusOf).toEqual({
      Free: 'FREE',
      Held: 'HELD',
      Lapsed: 'FREE',
      Out: 'OUT',
      Overdue: 'OVERDUE',
      Scheduled: 'SCHEDULED',
    })
    const outRow = rows.find((row) => row.id === out.id)!
    expect(outRow.transfer).toEqual({
      startsAt: outTransfer.startsAt.toISOString(),
      endsAt: outTransfer.endsAt.toISOString(),
    })
    expect(rows.find((row) => row.id === held.id)!.transfer).toBeNull()
    expect(rows.find((row) => row.id === lapsed.id)!.transfer).toBeNull()

    const filtered = async (status: string) => names(await all(admin.cookie, { status }))
    expect(await filtered('free')).toEqual(['Free', 'Lapsed'])
    expect(await filtered('held')).toEqual(['Held'])
    expect(await filtered('scheduled')).toEqual(['Scheduled'])
    expect(await filtered('out')).toEqual(['Out'])
    expect(await filtered('overdue')).toEqual(['Overdue'])
    expect(await filtered('unheld')).toEqual(['Free', 'Lapsed'])
    // Time passes: the transfer out becomes overdue, the scheduled one lapses.
    t.clock.advance(5 * DAY)
    const again = await t.signIn(admin.profile.email)
    const filteredNow = async (status: string) => names(await all(again.cookie, { status }))
    expect(await filteredNow('overdue')).toEqual(['Out', 'Overdue'])
    expect(await filteredNow('held')).toEqual(['Held', 'Scheduled'])
    expect(free.id).toBeTruthy()
  })
})

describe('GET /api/keychains: search by name, tag code and holder', () => {
  it('finds by part of a tag code, names the keychain of a whole code, and finds by holder name or e-mail', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const holder = await signedInMember(t, organization.id, 'MEMBER')
    await t.db.update(users).set({ firstName: 'Gaspard', lastName: 'Lenoir' }).where(eq(users.id, holder.id))
    const tags = await makeTags(t, organization.id, 2, 'SRC')
    const cellar = await makeKeychain(t, organization.id, 'Cellier')
    const attic = await makeKeychain(t, organization.id, 'Grenier', holder.id)
    await makeKeychain(t, organization.id, 'Garage')
    await addTagKey(t, cellar.id, tags[0]!.id, 'Porte')
    await addTagKey(t, attic.id, tags[1]!.id, 'Trappe')

    const exact = await list(admin.cookie, { q: tags[0]!.code.toLowerCase() })
    expect(names(exact.data)).toEqual(['Cellier'])
    expect(exact.tagMatch).toBe(cellar.id)
    const part = await list(admin.cookie, { q: 'SRC-' })
    expect(names(part.data)).toEqual(['Cellier', 'Grenier'])
    expect(part.tagMatch).toBeNull()
    expect(names((await list(admin.cookie, { q: 'lenoir' })).data)).toEqual(['Grenier'])
    expect(names((await list(admin.cookie, { q: 'gaspard len' })).data)).toEqual(['Grenier'])
    expect(names((await list(admin.cookie, { q: holder.email })).data)).toEqual(['Grenier'])
    expect(names((await list(admin.cookie, { q: 'ga' })).data)).toEqual(['Garage', 'Grenier'])
    // Another organization's code finds nothing here.
    const other = await organizationWithAdmin(t, 'Other')
    const [theirs] = await makeTags(t, other.organization.id, 1, 'OTH')
    const theirKeychain = await makeKeychain(t, other.organization.id, 'Theirs')
    await addTagKey(t, theirKeychain.id, theirs!.id)
    const foreign = await list(admin.cookie, { q: theirs!.code })
    expect(foreign.data).toEqual([])
    expect(foreign.tagMatch).toBeNull()
  })
})

describe('DELETE /api/keychains/{id} is soft; POST /api/keychains/{id}/restore brings it back', () => {
  it('hides it from lists, search, reads and scans (its tags free meanwhile); a restore brings back keys and tags', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const tags = await makeTags(t, organization.id, 2, 'DEL')
    const keychain = await makeKeychain(t, organization.id, 'Bureau 4', member.id)
    await addTagKey(t, keychain.id, tags[0]!.id, 'Porte')
    await addTagKey(t, keychain.id, tags[1]!.id, 'Boîte')
    await t.post(`/api/keychains/${keychain.id}/keys`, {
      cookie: admin.cookie,
      json: { type: 'KEY', name: 'Cave' },
    })
    const before = await (await t.get(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })).json()

    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: manager.cookie })).status).toBe(204)
    expect((await t.get(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })).status).toBe(404)
    expect(await all(admin.cookie)).toEqual([])
    expect((await list(admin.cookie, { q: 'bureau' })).data).toEqual([])
    const search = await list(admin.cookie, { q: tags[0]!.code })
    expect(search).toMatchObject({ data: [], tagMatch: null })
    // A scan of its tag finds a free tag, not the deleted keychain.
    const scan = await t.post('/api/scans', {
      cookie: member.cookie,
      json: { value: tags[0]!.code },
      headers: { 'idempotency-key': crypto.randomUUID() },
    })
    expect(scan.status).toBeLessThan(300)
    expect(JSON.stringify(await scan.json())).not.toContain(keychain.id)
    // Writes to it are 404 too.
    expect(
      (await t.patch(`/api/keychains/${keychain.id}`, { cookie: admin.cookie, json: { name: 'X' } })).status,
    ).toBe(404)
    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })).status).toBe(404)

    // The deleted list: for those who may delete.
    const deleted = await list(manager.cookie, { status: 'deleted' })
    expect(deleted.data.map((row) => [row.name, typeof row.deletedAt])).toEqual([['Bureau 4', 'string']])
    expect((await t.get('/api/keychains?status=deleted', { cookie: member.cookie })).status).toBe(403)
    expect((await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: member.cookie })).status).toBe(
      403,
    )

    const restored = await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: manager.cookie })
    expect(restored.status).toBe(200)
    const back = await restored.json()
    expect(back.keys).toEqual(before.keys)
    expect(back.custodian).toEqual(before.custodian)
    expect(names(await all(admin.cookie))).toEqual(['Bureau 4'])
    expect((await list(admin.cookie, { q: tags[1]!.code })).tagMatch).toBe(keychain.id)
    expect((await all(admin.cookie))[0]).toMatchObject({
      keyCount: 3,
      tagCodes: [tags[0]!.code, tags[1]!.code].sort(),
    })
    expect((await list(manager.cookie, { status: 'deleted' })).data).toEqual([])
    // Restoring what is not deleted: 404.
    expect((await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: manager.cookie })).status).toBe(
      404,
    )
  })

  it('refuses a restore while one of its tags is on another key (409), and answers 404 across organizations', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id, 1, 'TKN')
    const keychain = await makeKeychain(t, organization.id, 'Atelier')
    await addTagKey(t, keychain.id, tag!.id, 'Porte')
    expect((await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })).status).toBe(204)
    const other = await makeKeychain(t, organization.id, 'Hangar')
    const taken = await t.post(`/api/keychains/${other.id}/keys`, {
      cookie: admin.cookie,
      json: { type: 'TAG', name: 'Porte', tagId: tag!.id },
    })
    expect(taken.status).toBe(201)
    const refused = await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: admin.cookie })
    expect(refused.status).toBe(409)
    expect((await refused.json()).error).toMatchObject({
      code: 'tag_taken',
      message: expect.stringContaining(tag!.code),
    })

    const foreign = await organizationWithAdmin(t, 'Foreign')
    expect(
      (await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: foreign.admin.cookie })).status,
    ).toBe(404)
    expect((await list(foreign.admin.cookie, { status: 'deleted' })).data).toEqual([])
    // The deleted list goes newest deletion first, page after page.
    for (const name of ['Cour 1', 'Cour 2', 'Cour 3']) {
      const made = await makeKeychain(t, organization.id, name)
      t.clock.advance(1000)
      expect((await t.delete(`/api/keychains/${made.id}`, { cookie: admin.cookie })).status).toBe(204)
    }
    expect(names(await all(admin.cookie, { status: 'deleted', sort: 'name' }))).toEqual([
      'Cour 3',
      'Cour 2',
      'Cour 1',
      'Atelier',
    ])

    const keyId = (await taken.json()).id
    expect(
      (await t.delete(`/api/keychains/${other.id}/keys/${keyId}`, { cookie: admin.cookie })).status,
    ).toBe(204)
    expect((await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: admin.cookie })).status).toBe(200)
  })

  it('frees its name for an import while deleted, and leaves it out of the export', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const keychain = await makeKeychain(t, organization.id, 'Vestiaire')
    const csv = 'keychain_name,custodian_email,key_name,key_type,tag_code\r\nVestiaire,,Porte,KEY,'
    const preview = async () =>
      (await t.post('/api/keychain-imports/previews', { cookie: admin.cookie, json: { csv } })).json()
    expect((await preview()).errors.map((error: { code: string }) => error.code)).toEqual(['keychain_exists'])
    await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })
    expect((await preview()).errors).toEqual([])
    const exported = await (await t.get('/api/keychain-export', { cookie: admin.cookie })).text()
    expect(exported).not.toContain('Vestiaire')
  })

  it('tells the mirror the keychain is gone, its tags free, and then back with them', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id, 1, 'MIR')
    const keychain = await makeKeychain(t, organization.id, 'Remise')
    await addTagKey(t, keychain.id, tag!.id, 'Porte')
    const feed = async (cursor?: string) => {
      const response = await t.get(`/api/sync/changes${cursor ? `?cursor=${cursor}` : ''}`, {
        cookie: admin.cookie,
      })
      expect(response.status).toBe(200)
      return (await response.json()) as SyncPage
    }
    let page = await feed()
    while (page.more) page = await feed(page.cursor)
    await t.delete(`/api/keychains/${keychain.id}`, { cookie: admin.cookie })
    const gone = await feed(page.cursor)
    expect(gone.deleted.keychains).toEqual([keychain.id])
    expect(gone.keychains).toEqual([])
    expect(gone.tags.find((each) => each.id === tag!.id)?.key).toBeNull()
    await t.post(`/api/keychains/${keychain.id}/restore`, { cookie: admin.cookie })
    const back = await feed(gone.cursor)
    expect(back.deleted.keychains).toEqual([])
    expect(back.keychains.map((each) => each.id)).toEqual([keychain.id])
    expect(back.tags.find((each) => each.id === tag!.id)?.key).toMatchObject({ keychainId: keychain.id })
  })
})
