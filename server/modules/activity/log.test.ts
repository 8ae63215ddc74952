import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import { HOUR } from '../../test/clock.ts'
import { makeKeychain, makeTags } from '../../test/fixtures.ts'
import { setupTestAppAtEpoch } from '../../test/harness.ts'
import { addTagKey, authorize, dates, pickup, toMember, transferWorld } from '../../test/transfers.ts'
import { appendEvent } from '../events/log.ts'
import { ACTIVITY_CSV_COLUMNS, EXPORT_BATCH } from './log.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

type Entry = {
  seq: number
  kind: string
  actor: { email: string } | null
  keychainIds: string[]
  tagIds: string[]
}

/** Every entry of a view, page after page. */
async function all(cookie: string, query = ''): Promise<Entry[]> {
  const entries: Entry[] = []
  let cursor: string | null = null
  do {
    const separator = query ? '&' : ''
    const page: { data: Entry[]; nextCursor: string | null } = await (
      await t.get(`/api/activity?${query}${separator}limit=3${cursor ? `&cursor=${cursor}` : ''}`, { cookie })
    ).json()
    entries.push(...page.data)
    cursor = page.nextCursor
  } while (cursor)
  return entries
}

/** An organization with a day of activity: a keychain made, a transfer authorized on the 15th, picked up on the 16th. */
async function dayOfActivity() {
  const world = await transferWorld(t)
  const { admin, contact, keychain, organization, tag } = world
  const other = await makeKeychain(t, organization.id, 'Loge')
  const lent = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
  t.clock.advance(24 * HOUR)
  await pickup(t, contact.cookie, lent.id)
  return { ...world, other, tag, lent }
}

describe('the organization’s activity log', () => {
  it('lists every entry newest first, filtered by kind, person, keychain, tag and days, and nothing of another organization', async () => {
    const { admin, contact, keychain, other, tag } = await dayOfActivity()
    const stranger = await dayOfActivity()
    const everything = await all(admin.cookie)
    expect(everything.map((entry) => entry.seq)).toEqual(
      [...everything.map((entry) => entry.seq)].sort((a, b) => b - a),
    )
    expect(everything.map((entry) => entry.kind).slice(0, 2)).toEqual([
      'transfer.picked_up',
      'transfer.authorized',
    ])
    expect(everything.some((entry) => entry.keychainIds.includes(stranger.keychain.id))).toBe(false)

    expect((await all(admin.cookie, 'kind=transfer.picked_up')).map((entry) => entry.actor?.email)).toEqual([
      contact.email,
    ])
    expect((await all(admin.cookie, `person=${contact.id}`)).map((entry) => entry.kind)).toEqual([
      'transfer.picked_up',
    ])
    const ofKeychain = await all(admin.cookie, `keychain=${keychain.id}`)
    expect(ofKeychain.every((entry) => entry.keychainIds.includes(keychain.id))).toBe(true)
    expect(ofKeychain.some((entry) => entry.keychainIds.includes(other.id))).toBe(false)
    expect((await all(admin.cookie, `tag=${tag.id}`)).every((entry) => entry.tagIds.includes(tag.id))).toBe(
      true,
    )
    expect((await all(admin.cookie, 'from=2030-01-16&to=2030-01-16')).map((entry) => entry.kind)).toEqual([
      'transfer.picked_up',
    ])
    expect(await all(admin.cookie, 'from=2030-01-17')).toEqual([])
  })

  it('refuses an unknown kind, a malformed cursor or day, and anyone but admins and managers', async () => {
    const { admin, member } = await dayOfActivity()
    for (const query of ['kind=party', 'cursor=nope', 'from=2030-02-30', 'person=me']) {
      const response = await t.get(`/api/activity?${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
    }
    expect((await t.get('/api/activity', { cookie: member.cookie })).status).toBe(403)
    expect((await t.get('/api/activity/export', { cookie: member.cookie })).status).toBe(403)
  })

  it('exports the view as CSV, every entry once across batches, newest first', async () => {
    const { admin, organization } = await dayOfActivity()
    const [tag] = await makeTags(t, organization.id, 1, 'CSV')
    const keychain = await makeKeychain(t, organization.id, 'Export')
    await addTagKey(t, keychain.id, tag!.id)
    // More than two batches of one keychain's entries, written as the services write them.
    await t.db.transaction(async (tx) => {
      for (let n = 0; n < 2 * EXPORT_BATCH + 10; n += 1) {
        await appendEvent(tx, {
          organizationId: organization.id,
          kind: 'keychain.updated',
          actorId: admin.profile.id,
          serverTime: t.clock.now(),
          keychainIds: [keychain.id],
          payload: { name: `=Export ${n}` },
        })
      }
    })
    const response = await t.get(`/api/activity/export?keychain=${keychain.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    const records = parse(await response.text(), { columns: true }) as Array<Record<string, string>>
    expect(Object.keys(records[0]!)).toEqual([...ACTIVITY_CSV_COLUMNS])
    expect(records).toHaveLength(2 * EXPORT_BATCH + 10)
    const seqs = records.map((record) => Number(record.seq))
    expect(new Set(seqs).size).toBe(seqs.length)
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
    expect(records[0]).toMatchObject({ kind: 'keychain.updated', actor_email: admin.email, from_queue: 'no' })
    // A spreadsheet would run a leading "=": the exported details cannot start a formula.
    expect(records[0]!.details!.startsWith('=')).toBe(false)
  })
})
