// What a page of the activity log points at (`refs`): the names, codes, people and windows its entries need to
// say what happened, read in one statement per page whatever the page holds.
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { ActivityEntry, ActivityRefs } from '../../../contract/activity.ts'
import { HOUR } from '../../../tests/server/clock.ts'
import { makeKeychain, makeTags } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { authorize, dates, pickup, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, tags } from '../../db/schema.ts'
import { appendEvent, type NewEvent } from '../events/append.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

type Page = { data: ActivityEntry[]; nextCursor: string | null; refs: ActivityRefs }

/** An entry appended as the server appends one, now, by that person. */
const append = (
  organizationId: string,
  actorId: string,
  entry: Omit<NewEvent, 'organizationId' | 'actorId' | 'serverTime'>,
) =>
  t.db.transaction((tx) => appendEvent(tx, { organizationId, actorId, serverTime: t.clock.now(), ...entry }))

async function page(cookie: string, query = ''): Promise<Page> {
  const response = await t.get(`/api/activity${query}`, { cookie })
  expect(response.status).toBe(200)
  return response.json()
}

/** A keychain renamed, its custody changed, lent and picked up, another lent then cancelled, a third deleted. */
async function story() {
  const world = await transferWorld(t)
  const { admin, contact, member, keychain, organization } = world
  const patch = (json: unknown) => t.patch(`/api/keychains/${keychain.id}`, { cookie: admin.cookie, json })
  expect((await patch({ name: 'Cave B' })).status).toBe(200)
  expect((await patch({ custodianId: admin.id, reason: 'Inventaire' })).status).toBe(200)
  expect((await patch({ custodianId: member.id })).status).toBe(200)
  const attic = await makeKeychain(t, organization.id, 'Grenier')
  const lent = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
  const cancelled = await (
    await authorize(t, admin.cookie, attic.id, dates(toMember(contact.id), '2030-02-01', '2030-02-03'))
  ).json()
  expect((await t.delete(`/api/transfers/${cancelled.id}`, { cookie: admin.cookie })).status).toBe(200)
  t.clock.advance(2 * HOUR)
  expect((await pickup(t, contact.cookie, lent.id)).status).toBe(201)
  const gone = await makeKeychain(t, organization.id, 'Remise')
  expect((await t.delete(`/api/keychains/${gone.id}`, { cookie: admin.cookie })).status).toBe(204)
  return { ...world, attic, gone, lent, cancelled }
}

describe('the references of a page of activity', () => {
  it('name the keychains (now, and whether deleted), tags, people and transfers the entries point at', async () => {
    const { admin, member, contact, keychain, attic, gone, lent, cancelled } = await story()
    const { data, refs } = await page(admin.cookie)
    const byKind = (kind: string) => data.filter((entry) => entry.kind === kind)

    expect(refs.keychains[keychain.id]).toEqual({ name: 'Cave B', deleted: false })
    expect(refs.keychains[attic.id]).toEqual({ name: 'Grenier', deleted: false })
    expect(refs.keychains[gone.id]).toEqual({ name: 'Remise', deleted: true })
    expect(byKind('keychain.deleted')[0]?.payload).toEqual({ name: 'Remise' })

    // A rename and a custody change are both `keychain.updated`, told apart by their payload.
    const updates = byKind('keychain.updated').filter((entry) => entry.keychainIds[0] === keychain.id)
    expect(updates.map((entry) => entry.payload)).toEqual([
      { custodian: { from: admin.id, to: member.id }, reason: '' },
      { custodian: { from: member.id, to: admin.id }, reason: 'Inventaire' },
      { name: { from: 'Cave', to: 'Cave B' } },
    ])
    for (const person of [admin, member, contact]) {
      expect(refs.people[person.id]).toMatchObject({ id: person.id, email: person.email })
    }

    // The cancelled transfer's entry names no one: its recipient and window come with the page.
    const [cancellation] = byKind('transfer.cancelled')
    expect(cancellation?.transferIds).toEqual([cancelled.id])
    expect(refs.transfers[cancelled.id]).toEqual({
      recipientId: contact.id,
      fromDate: '2030-02-01',
      toDate: '2030-02-03',
    })
    expect(refs.transfers[lent.id]).toEqual({
      recipientId: contact.id,
      fromDate: '2030-01-15',
      toDate: '2030-01-17',
    })
    expect(byKind('transfer.picked_up')[0]?.payload).toEqual({
      custodian: { from: member.id, to: contact.id },
    })
  })

  it('name the tag of a found-keys report and what the filters point at, even on an empty page, and nothing of another organization', async () => {
    const { admin, contact, tag, keychain, organization } = await story()
    const stranger = await transferWorld(t, { name: 'Autre' })
    await append(organization.id, admin.id, {
      kind: 'found_report.status_changed',
      tagIds: [tag.id, stranger.tag.id],
      keychainIds: [stranger.keychain.id],
      payload: { reportId: crypto.randomUUID(), from: 'NEW', to: 'RESOLVED', memberId: 'not-an-id' },
    })
    const { refs } = await page(admin.cookie, '?kind=found_report.status_changed')
    expect(refs.tags[tag.id]).toEqual({ code: tag.code, name: tag.name })
    expect(refs.tags[stranger.tag.id]).toBeUndefined()
    expect(refs.keychains[stranger.keychain.id]).toBeUndefined()

    const empty = await page(
      admin.cookie,
      `?keychain=${keychain.id}&tag=${tag.id}&person=${contact.id}&from=2031-01-01`,
    )
    expect(empty.data).toEqual([])
    expect(empty.refs.keychains[keychain.id]?.name).toBe('Cave B')
    expect(empty.refs.tags[tag.id]?.code).toBe(tag.code)
    expect(empty.refs.people[contact.id]?.email).toBe(contact.email)
    // Someone of another organization only: their id asked for names no one.
    const outsider = await page(admin.cookie, `?person=${stranger.admin.id}`)
    expect(outsider.data).toEqual([])
    expect(outsider.refs.people).toEqual({})
  })

  it('name the keychains and tags of each exported row: the name now, the recorded one once gone for good', async () => {
    const { admin, keychain, gone, tag } = await story()
    await t.db.delete(keychains).where(eq(keychains.id, gone.id))
    const csv = await (await t.get('/api/activity/export', { cookie: admin.cookie })).text()
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>
    const named = (kind: string) =>
      records.filter((row) => row.kind === kind).map((row) => [row.keychain_names, row.tag_codes])
    expect(named('keychain.deleted')).toEqual([['Remise', '']])
    expect(named('transfer.picked_up')).toEqual([['Cave B', '']])
    const renamed = records.find((row) => row.kind === 'keychain.updated' && row.details?.includes('Cave B'))
    expect(renamed?.keychain_names).toBe('Cave B')
    expect(renamed?.keychain_ids).toBe(keychain.id)
    expect(tag.code).toMatch(/^TRF-/)
  })

  it('leave out what an entry only counts (an import, an order), the entries past the page, and malformed ids', async () => {
    const { admin, organization, keychain, tag } = await story()
    const [imported, ordered, older] = await Promise.all(
      ['Import', 'Commande', 'Ancienne'].map((name) => makeKeychain(t, organization.id, name)),
    )
    const newTags = await makeTags(t, organization.id, 2, 'NEW')
    const countedEntry = (kind: NewEvent['kind'], ids: Pick<NewEvent, 'keychainIds' | 'tagIds'>) =>
      append(organization.id, admin.id, {
        kind,
        ...ids,
        payload: { custodianId: 'not-an-id', recipientId: 42, memberId: [admin.id] },
      })
    await countedEntry('keychains.imported', { keychainIds: [imported!.id], tagIds: [newTags[0]!.id] })
    await countedEntry('tags.created', { keychainIds: [ordered!.id], tagIds: [newTags[1]!.id] })
    const counted = async (kind: string) => (await page(admin.cookie, `?kind=${kind}`)).refs
    for (const kind of ['keychains.imported', 'tags.created']) {
      expect(await counted(kind)).toEqual({ keychains: {}, tags: {}, people: {}, transfers: {} })
    }

    await countedEntry('found_report.status_changed', { keychainIds: [older!.id] })
    t.clock.advance(HOUR)
    await countedEntry('found_report.status_changed', { tagIds: [tag.id] })
    const newest = await page(admin.cookie, '?kind=found_report.status_changed&limit=1')
    expect(newest.data[0]?.tagIds).toEqual([tag.id])
    expect(newest.refs.tags).toEqual({ [tag.id]: { code: tag.code, name: tag.name } })
    expect(newest.refs.keychains).toEqual({})

    // Each filter named on its own, or with one other, on an empty page.
    const later = '&from=2031-01-01'
    for (const [query, named] of [
      [`?keychain=${keychain.id}&person=${admin.id}`, { keychains: [keychain.id], people: [admin.id] }],
      [`?keychain=${keychain.id}&tag=${tag.id}`, { keychains: [keychain.id], tags: [tag.id] }],
      [`?tag=${tag.id}`, { tags: [tag.id] }],
    ] as const) {
      const { refs } = await page(admin.cookie, query + later)
      expect(Object.keys(refs.keychains), query).toEqual('keychains' in named ? named.keychains : [])
      expect(Object.keys(refs.tags), query).toEqual('tags' in named ? named.tags : [])
      expect(Object.keys(refs.people), query).toEqual('people' in named ? named.people : [])
    }
  })

  it('write in the export each keychain and tag still there, `; ` apart, and a recorded name only for a keychain entry', async () => {
    const { admin, organization, keychain, tag } = await story()
    const [second] = await makeTags(t, organization.id, 1, 'SEC')
    const [lost] = await makeTags(t, organization.id, 1, 'LOS')
    const gone = await makeKeychain(t, organization.id, 'Disparu')
    const shelf = await makeKeychain(t, organization.id, 'Étagère')
    const twoOfEach = (kind: NewEvent['kind'], payload: Record<string, unknown>) =>
      append(organization.id, admin.id, {
        kind,
        keychainIds: [gone.id, keychain.id, shelf.id],
        tagIds: [tag.id, lost!.id, second!.id],
        payload,
      })
    await twoOfEach('key.added', { name: 'Clé bleue' })
    await twoOfEach('keychain.updated', { reason: 'no name recorded' })
    await t.db.delete(keychains).where(eq(keychains.id, gone.id))
    await t.db.delete(tags).where(eq(tags.id, lost!.id))
    const csv = await (await t.get('/api/activity/export', { cookie: admin.cookie })).text()
    const records = parse(csv, { columns: true }) as Array<Record<string, string>>
    const row = (kind: string) =>
      records.find((each) => each.kind === kind && each.keychain_ids?.startsWith(gone.id))
    // A key's name is not its keychain's: the keychain gone for good is left out, not named after the key.
    expect(row('key.added')?.keychain_names).toBe('Cave B; Étagère')
    expect(row('keychain.updated')?.keychain_names).toBe('Cave B; Étagère')
    expect(row('key.added')?.tag_codes).toBe(`${tag.code}; ${second!.code}`)
  })

  it('cost one statement more than the page alone, however many entries and references it holds', async () => {
    const { admin } = await story()
    const nothing = await statementsOf(() => t.get('/api/activity?from=2031-01-01', { cookie: admin.cookie }))
    expect(nothing.result.status).toBe(200)
    const full = await statementsOf(() => t.get('/api/activity?limit=100', { cookie: admin.cookie }))
    expect(full.result.status).toBe(200)
    expect(((await full.result.json()) as Page).data.length).toBeGreaterThan(8)
    expect(full.statements.length, full.statements.join('\n')).toBe(nothing.statements.length + 1)
    const one = await statementsOf(() => t.get('/api/activity?limit=1', { cookie: admin.cookie }))
    expect(one.statements.length).toBe(full.statements.length)
  })
})
