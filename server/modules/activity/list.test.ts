import { randomUUID } from 'node:crypto'
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { HOUR, MINUTE } from '../../../tests/server/clock.ts'
import { makeKeychain, makeTags } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  addTagKey,
  authorize,
  dates,
  pickup,
  toMember,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { users } from '../../db/schema.ts'
import { encodeCursor } from '../../http/pagination.ts'
import { appendEvent, type NewEvent } from '../events/append.ts'
import { ACTIVITY_CSV_COLUMNS, SIGNED_HEAD_ROW } from './export-columns.ts'
import { EXPORT_BATCH } from './list.ts'

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
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="activity.csv"')
    const rows = parse(await response.text(), { columns: true }) as Array<Record<string, string>>
    expect(Object.keys(rows[0]!)).toEqual([...ACTIVITY_CSV_COLUMNS])
    // The log's signed head comes last, once.
    expect(rows.at(-1)!.kind).toBe(SIGNED_HEAD_ROW)
    const records = rows.slice(0, -1)
    expect(records).toHaveLength(2 * EXPORT_BATCH + 10)
    const seqs = records.map((record) => Number(record.seq))
    expect(new Set(seqs).size).toBe(seqs.length)
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a))
    expect(records[0]).toMatchObject({ kind: 'keychain.updated', actor_email: admin.email, from_queue: 'no' })
    // A spreadsheet would run a leading "=": the exported details cannot start a formula.
    expect(records[0]!.details!.startsWith('=')).toBe(false)
    // 2,010 entries appended one by one take 13 s of a quiet 2-core machine, and more while CI runs two files at once.
  }, 60_000)
})

describe('an entry of the log', () => {
  const event = (organizationId: string, keychainId: string, fields: Partial<NewEvent>) =>
    t.db.transaction((tx) =>
      appendEvent(tx, {
        organizationId,
        kind: 'keychain.updated',
        actorId: null,
        serverTime: t.clock.now(),
        keychainIds: [keychainId],
        ...fields,
      }),
    )

  it('shows what happened as stored: both times, whether it came from the offline queue, ids, details and who, in the list and the export', async () => {
    const { admin, organization, keychain, tag } = await transferWorld(t)
    await t.db
      .update(users)
      .set({ firstName: 'Ada', lastName: 'Lovelace' })
      .where(eq(users.id, admin.profile.id))
    const transfers = [randomUUID(), randomUUID()]
    const clientTime = new Date(t.clock.now().getTime() - 5 * MINUTE)
    await event(organization.id, keychain.id, {
      actorId: admin.profile.id,
      clientTime,
      fromQueue: true,
      tagIds: [tag.id],
      transferIds: transfers,
      payload: { name: 'Cave' },
    })
    t.clock.advance(MINUTE)
    await event(organization.id, keychain.id, { payload: {} })
    const page = await (await t.get(`/api/activity?keychain=${keychain.id}`, { cookie: admin.cookie })).json()
    const [system, queued] = page.data
    expect(system).toEqual({
      seq: queued.seq + 1,
      kind: 'keychain.updated',
      actor: null,
      serverTime: t.clock.now().toISOString(),
      clientTime: null,
      fromQueue: false,
      keychainIds: [keychain.id],
      tagIds: [],
      transferIds: [],
      payload: {},
    })
    expect(queued).toMatchObject({
      kind: 'keychain.updated',
      actor: { id: admin.profile.id, email: admin.email },
      serverTime: new Date(t.clock.now().getTime() - MINUTE).toISOString(),
      clientTime: clientTime.toISOString(),
      fromQueue: true,
      keychainIds: [keychain.id],
      tagIds: [tag.id],
      transferIds: transfers,
      payload: { name: 'Cave' },
    })

    const csv = await (
      await t.get(`/api/activity/export?keychain=${keychain.id}`, { cookie: admin.cookie })
    ).text()
    // Windows line ends, as spreadsheets expect.
    expect(csv.split('\r\n')).toHaveLength(5)
    const [head, ...records] = (parse(csv, { columns: true }) as Array<Record<string, string>>).reverse()
    expect(head).toMatchObject({ seq: '', kind: SIGNED_HEAD_ROW, server_time: t.clock.now().toISOString() })
    records.reverse()
    expect(records).toEqual([
      {
        seq: String(system.seq),
        kind: 'keychain.updated',
        server_time: system.serverTime,
        client_time: '',
        from_queue: 'no',
        actor_email: '',
        actor_name: '',
        keychain_ids: keychain.id,
        tag_ids: '',
        transfer_ids: '',
        details: '{}',
        keychain_names: 'Cave',
        tag_codes: '',
        actor_id: '',
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
      {
        seq: String(queued.seq),
        kind: 'keychain.updated',
        server_time: queued.serverTime,
        client_time: clientTime.toISOString(),
        from_queue: 'yes',
        actor_email: admin.email,
        actor_name: 'Ada Lovelace',
        keychain_ids: keychain.id,
        tag_ids: tag.id,
        transfer_ids: transfers.join(' '),
        // As the chain's hash covers it: the payload as the database prints it.
        details: '{"name": "Cave"}',
        keychain_names: 'Cave',
        tag_codes: tag.code,
        actor_id: admin.profile.id,
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ])
  })

  it("counts days in the organization's time zone, both ends included", async () => {
    const { admin, organization, keychain } = await transferWorld(t)
    // Midnight in Paris (UTC+1) starts the 16th; a millisecond before is still the 15th.
    t.clock.set(new Date('2030-01-15T22:59:59.999Z'))
    await event(organization.id, keychain.id, { payload: { day: 15 } })
    t.clock.set(new Date('2030-01-15T23:00:00.000Z'))
    await event(organization.id, keychain.id, { payload: { day: 16 } })
    const days = async (query: string) =>
      (await all(admin.cookie, `keychain=${keychain.id}&${query}`)).map(
        (entry) => (entry as unknown as { payload: { day: number } }).payload.day,
      )
    expect(await days('from=2030-01-16')).toEqual([16])
    expect(await days('to=2030-01-15')).toEqual([15])
    expect(await days('from=2030-01-15&to=2030-01-15')).toEqual([15])
    expect(await days('from=2030-01-16&to=2030-01-16')).toEqual([16])
  })

  it('exports an empty view as its header and the signed head alone', async () => {
    const { admin, organization } = await transferWorld(t)
    const quiet = await makeKeychain(t, organization.id, 'Silence')
    const csv = await (
      await t.get(`/api/activity/export?keychain=${quiet.id}`, { cookie: admin.cookie })
    ).text()
    const [header, head, end] = csv.split('\r\n')
    expect(header).toBe(ACTIVITY_CSV_COLUMNS.join(','))
    expect(head).toMatch(new RegExp(`^,${SIGNED_HEAD_ROW},`))
    expect(end).toBe('')
  })

  it('pages the view `limit` entries at a time, with a cursor to the next page only while entries remain', async () => {
    const { admin, organization, keychain } = await transferWorld(t)
    for (let n = 0; n < 5; n += 1) await event(organization.id, keychain.id, { payload: { n } })
    type Page = { data: Array<{ payload: { n: number } }>; nextCursor: string | null }
    const page = async (limit: number, cursor?: string | null): Promise<Page> => {
      const after = cursor ? `&cursor=${cursor}` : ''
      const response = await t.get(`/api/activity?keychain=${keychain.id}&limit=${limit}${after}`, {
        cookie: admin.cookie,
      })
      return response.json()
    }
    const numbers = (each: Page) => each.data.map((entry) => entry.payload.n)
    const first = await page(2)
    expect(numbers(first)).toEqual([4, 3])
    expect(first.nextCursor).not.toBeNull()
    const second = await page(2, first.nextCursor)
    expect(numbers(second)).toEqual([2, 1])
    expect(second.nextCursor).not.toBeNull()
    const last = await page(2, second.nextCursor)
    expect(numbers(last)).toEqual([0])
    expect(last.nextCursor).toBeNull()
    // A view of exactly `limit` entries is one page, with nothing after it.
    const whole = await page(5)
    expect(numbers(whole)).toEqual([4, 3, 2, 1, 0])
    expect(whole.nextCursor).toBeNull()
  })

  it('exports names and ids as cells a spreadsheet reads as text: a formula escaped, a line break kept in its cell, a lone first or last name unpadded, several ids apart', async () => {
    const { admin, member, contact, organization, keychain, tag } = await transferWorld(t)
    const loge = await makeKeychain(t, organization.id, 'Loge')
    const [badge] = await makeTags(t, organization.id, 1, 'IDS')
    const name = (id: string, firstName: string, lastName: string) =>
      t.db.update(users).set({ firstName, lastName }).where(eq(users.id, id))
    await name(admin.profile.id, '=HYPERLINK("https://evil.example","Open")', '')
    await name(member.id, '', 'Lovelace\nKing')
    await name(contact.id, 'Ada\rAugusta', 'Byron')
    for (const actor of [admin.profile.id, member.id, contact.id]) {
      await event(organization.id, keychain.id, {
        actorId: actor,
        keychainIds: [keychain.id, loge.id],
        tagIds: [tag.id, badge!.id],
      })
      t.clock.advance(MINUTE)
    }
    const csv = await (
      await t.get(`/api/activity/export?keychain=${keychain.id}`, { cookie: admin.cookie })
    ).text()
    // Line breaks inside a name are quoted: the record stays one line of the sheet.
    expect(csv).toContain('"Lovelace\nKing"')
    expect(csv).toContain('"Ada\rAugusta Byron"')
    const records = (parse(csv, { columns: true }) as Array<Record<string, string>>).slice(0, -1)
    const ids = { keychain_ids: `${keychain.id} ${loge.id}`, tag_ids: `${tag.id} ${badge!.id}` }
    expect(
      records.map(({ actor_email, actor_name, keychain_ids, tag_ids }) => ({
        actor_email,
        actor_name,
        keychain_ids,
        tag_ids,
      })),
    ).toEqual([
      { actor_email: contact.email, actor_name: 'Ada\rAugusta Byron', ...ids },
      { actor_email: member.email, actor_name: 'Lovelace\nKing', ...ids },
      // A leading "=" would run in a spreadsheet: the cell starts with a quote instead.
      { actor_email: admin.email, actor_name: `'=HYPERLINK("https://evil.example","Open")`, ...ids },
    ])
  })

  it('pages after the entry a cursor names, and refuses a cursor that holds no entry number', async () => {
    const { admin, organization, keychain } = await transferWorld(t)
    for (let n = 0; n < 3; n += 1) await event(organization.id, keychain.id, { payload: { n } })
    const newest = (await all(admin.cookie, `keychain=${keychain.id}`))[0]!
    const after = await t.get(
      `/api/activity?keychain=${keychain.id}&cursor=${encodeCursor([String(newest.seq)])}`,
      { cookie: admin.cookie },
    )
    expect((await after.json()).data.map((entry: Entry) => entry.seq)).toEqual([
      newest.seq - 1,
      newest.seq - 2,
    ])
    for (const key of ['a12', '12a', '', '1'.repeat(16)]) {
      const response = await t.get(`/api/activity?cursor=${encodeCursor([key])}`, { cookie: admin.cookie })
      expect(response.status, key).toBe(400)
    }
    const longest = await t.get(`/api/activity?cursor=${encodeCursor(['9'.repeat(15)])}`, {
      cookie: admin.cookie,
    })
    expect(longest.status).toBe(200)
  })
})
