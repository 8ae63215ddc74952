import { parse } from 'csv-parse/sync'
import { and, eq } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { HOUR, MINUTE } from '../../../tests/server/clock.ts'
import { addMember, makeKeychain, makeTags, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { addTagKey, makeTransfer, parisDay, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, keys, memberships, transfers } from '../../db/schema.ts'
import { encodeCursor } from '../../http/pagination.ts'
import { startOfDayIn } from '../../shared/time-zones.ts'
import { HOLDINGS_CSV_COLUMNS } from './holdings.ts'

const t = setupTestAppAtEpoch()

// The export's batch size, made small in one test so the report spans several batches.
const batch = vi.hoisted(() => ({ size: 0 }))
vi.mock('./csv.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('./csv.ts')>()
  return {
    ...real,
    get REPORT_BATCH() {
      return batch.size || real.REPORT_BATCH
    },
  }
})
afterEach(() => {
  batch.size = 0
})

/**
 * A MEMBER about to leave: "Cave" (its TAG key "Porte"), "Atelier" (a metal key and a tag), "Bureau" handed to
 * them an hour ago through the API, "vide" without keys, and "Prêt" lent to them and a day overdue. Others hold
 * "Loge"; a transfer of it to them is scheduled next week; cancelled, returned and expired transfers to them and
 * a keychain they hold in another organization stay out.
 */
async function departure() {
  const world = await transferWorld(t, { name: 'Départ' })
  const { organization, admin, member, contact } = world
  const [badge, lent, other] = await makeTags(t, organization.id, 3, 'DEP')
  const atelier = await makeKeychain(t, organization.id, 'Atelier', member.id)
  await t.db
    .insert(keys)
    .values({ keychainId: atelier.id, name: 'Grille', type: 'KEY', createdAt: t.clock.now() })
  await addTagKey(t, atelier.id, badge!.id, 'Badge')
  const bureau = await makeKeychain(t, organization.id, 'Bureau', admin.id)
  t.clock.advance(HOUR)
  const handed = await t.request(`/api/keychains/${bureau.id}`, {
    method: 'PATCH',
    cookie: admin.cookie,
    json: { custodianId: member.id, reason: 'Départ' },
  })
  expect(handed.status).toBe(200)
  const handedAt = t.clock.now().toISOString()
  t.clock.advance(MINUTE)
  const empty = await makeKeychain(t, organization.id, 'vide', member.id)
  const pret = await makeKeychain(t, organization.id, 'Prêt', member.id)
  await addTagKey(t, pret.id, lent!.id, 'Clé prêtée')
  const overdue = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: pret.id,
    recipientId: member.id,
    fromDate: parisDay(t, -5),
    toDate: parisDay(t, -2),
    status: 'TRANSFERRED',
    previousCustodianId: admin.id,
  })
  const loge = await makeKeychain(t, organization.id, 'Loge', contact.id)
  await addTagKey(t, loge.id, other!.id, 'Loge')
  const scheduled = await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: loge.id,
    recipientId: member.id,
    fromDate: parisDay(t, 7),
    toDate: parisDay(t, 9),
  })
  for (const status of ['CANCELLED', 'RETURNED'] as const)
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: loge.id,
      recipientId: member.id,
      status,
    })
  await makeTransfer(t, {
    organizationId: organization.id,
    keychainId: loge.id,
    recipientId: member.id,
    fromDate: parisDay(t, -4),
    toDate: parisDay(t, -3),
  })
  const elsewhere = await organizationWithAdmin(t, 'Ailleurs')
  await addMember(t, {
    userId: member.id,
    organizationId: elsewhere.organization.id,
    role: 'MEMBER',
    select: false,
  })
  const far = await makeKeychain(t, elsewhere.organization.id, 'Autre maison', member.id)
  await makeTransfer(t, {
    organizationId: elsewhere.organization.id,
    keychainId: far.id,
    recipientId: member.id,
  })
  return {
    ...world,
    badge: badge!,
    lent: lent!,
    atelier,
    bureau,
    empty,
    pret,
    loge,
    overdue,
    scheduled,
    handedAt,
  }
}

type Page<T> = { data: T[]; nextCursor: string | null; person?: { id: string; email: string } }

async function everyPage<T>(cookie: string, path: string, limit: number): Promise<T[]> {
  const items: T[] = []
  let cursor: string | null = null
  do {
    const response = await t.get(`${path}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { cookie })
    expect(response.status).toBe(200)
    const page = (await response.json()) as Page<T>
    items.push(...page.data)
    cursor = page.nextCursor
  } while (cursor)
  return items
}

describe('who holds what: the departure report', () => {
  it('lists exactly the keychains the person holds, by name, with their keys, since when, and what is due back', async () => {
    const world = await departure()
    const { admin, member, keychain, tag } = world
    const response = await t.get(`/api/reports/holdings?person=${member.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    const page = await response.json()
    expect(page.person).toMatchObject({
      id: member.id,
      email: member.email,
      role: 'MEMBER',
      status: 'ACTIVE',
    })
    expect(page.nextCursor).toBeNull()
    expect(page.data).toEqual([
      {
        id: world.atelier.id,
        name: 'Atelier',
        since: null,
        keys: [
          { name: 'Grille', type: 'KEY', tagCode: null },
          { name: 'Badge', type: 'TAG', tagCode: world.badge.code },
        ],
        dueBack: null,
      },
      { id: world.bureau.id, name: 'Bureau', since: world.handedAt, keys: [], dueBack: null },
      {
        id: keychain.id,
        name: 'Cave',
        since: null,
        keys: [{ name: 'Porte', type: 'TAG', tagCode: tag.code }],
        dueBack: null,
      },
      {
        id: world.pret.id,
        name: 'Prêt',
        since: null,
        keys: [{ name: 'Clé prêtée', type: 'TAG', tagCode: world.lent.code }],
        dueBack: { transferId: world.overdue.id, toDate: parisDay(t, -2), overdue: true },
      },
      { id: world.empty.id, name: 'vide', since: null, keys: [], dueBack: null },
    ])
    // Page after page, the same list.
    const paged = await everyPage<{ id: string }>(
      admin.cookie,
      `/api/reports/holdings?person=${member.id}`,
      2,
    )
    expect(paged.map((item) => item.id)).toEqual(page.data.map((item: { id: string }) => item.id))
  })

  it('lists the transfers addressed to the person that are still open, soonest first', async () => {
    const { admin, member, overdue, scheduled, pret, loge } = await departure()
    const transfers = await everyPage(admin.cookie, `/api/reports/holdings/transfers?person=${member.id}`, 1)
    expect(transfers).toEqual([
      {
        id: overdue.id,
        keychainId: pret.id,
        keychainName: 'Prêt',
        fromDate: parisDay(t, -5),
        toDate: parisDay(t, -2),
        status: 'RETURNING',
        expired: true,
      },
      {
        id: scheduled.id,
        keychainId: loge.id,
        keychainName: 'Loge',
        fromDate: parisDay(t, 7),
        toDate: parisDay(t, 9),
        status: 'SCHEDULED',
        expired: false,
      },
    ])
  })

  it('still reports on a member whose account was disabled, and on someone holding nothing', async () => {
    const { admin, member, organization, contact } = await departure()
    await t.db
      .update(memberships)
      .set({ status: 'DISABLED' })
      .where(and(eq(memberships.userId, member.id), eq(memberships.organizationId, organization.id)))
    const disabled = await (
      await t.get(`/api/reports/holdings?person=${member.id}`, { cookie: admin.cookie })
    ).json()
    expect(disabled.person.status).toBe('DISABLED')
    expect(disabled.data).toHaveLength(5)
    await t.db.update(keychains).set({ custodianId: null }).where(eq(keychains.custodianId, contact.id))
    const nothing = await (
      await t.get(`/api/reports/holdings?person=${contact.id}`, { cookie: admin.cookie })
    ).json()
    expect(nothing.data).toEqual([])
    expect(nothing.nextCursor).toBeNull()
  })

  it('exports the report as CSV: one record per key held, one per keychain without keys, then the open transfers', async () => {
    const world = await departure()
    const { admin, member, keychain, tag } = world
    const response = await t.get(`/api/reports/holdings/export?person=${member.id}`, { cookie: admin.cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="holdings.csv"')
    const text = await response.text()
    expect(text.split('\r\n')[0]).toBe(HOLDINGS_CSV_COLUMNS.join(','))
    const records = parse(text, { columns: true }) as Array<Record<string, string>>
    const row = (fields: Partial<Record<(typeof HOLDINGS_CSV_COLUMNS)[number], string>>) => ({
      ...Object.fromEntries(HOLDINGS_CSV_COLUMNS.map((column) => [column, ''])),
      person_email: member.email,
      ...fields,
    })
    const keychainRow = (id: string, name: string, fields = {}) =>
      row({ section: 'keychain', keychain_id: id, keychain_name: name, ...fields })
    expect(records).toEqual([
      keychainRow(world.atelier.id, 'Atelier', { key_name: 'Grille', key_type: 'KEY' }),
      keychainRow(world.atelier.id, 'Atelier', {
        key_name: 'Badge',
        key_type: 'TAG',
        tag_code: world.badge.code,
      }),
      keychainRow(world.bureau.id, 'Bureau', { held_since: world.handedAt }),
      keychainRow(keychain.id, 'Cave', { key_name: 'Porte', key_type: 'TAG', tag_code: tag.code }),
      keychainRow(world.pret.id, 'Prêt', {
        key_name: 'Clé prêtée',
        key_type: 'TAG',
        tag_code: world.lent.code,
        transfer_id: world.overdue.id,
        transfer_status: 'TRANSFERRED',
        to_date: parisDay(t, -2),
        overdue: 'yes',
      }),
      keychainRow(world.empty.id, 'vide'),
      row({
        section: 'transfer',
        keychain_id: world.pret.id,
        keychain_name: 'Prêt',
        transfer_id: world.overdue.id,
        transfer_status: 'RETURNING',
        from_date: parisDay(t, -5),
        to_date: parisDay(t, -2),
        overdue: 'yes',
      }),
      row({
        section: 'transfer',
        keychain_id: world.loge.id,
        keychain_name: 'Loge',
        transfer_id: world.scheduled.id,
        transfer_status: 'SCHEDULED',
        from_date: parisDay(t, 7),
        to_date: parisDay(t, 9),
        overdue: 'no',
      }),
    ])
  })

  it('exports the same report whatever the batch size: keychains by name, then transfers soonest first', async () => {
    const { admin, member, organization, loge, scheduled } = await departure()
    // A second transfer of "Loge" to them in the same window: the transfers' batches go on by start, then id.
    const twin = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: loge.id,
      recipientId: member.id,
      fromDate: parisDay(t, 7),
      toDate: parisDay(t, 9),
    })
    const exported = async () => {
      const text = await (
        await t.get(`/api/reports/holdings/export?person=${member.id}`, { cookie: admin.cookie })
      ).text()
      expect(text.split('\r\n').filter((line) => line.startsWith('person_email'))).toHaveLength(1)
      return parse(text, { columns: true }) as Array<Record<string, string>>
    }
    const whole = await exported()
    expect(whole.map((record) => [record.section, record.keychain_name, record.transfer_id])).toEqual([
      ['keychain', 'Atelier', ''],
      ['keychain', 'Atelier', ''],
      ['keychain', 'Bureau', ''],
      ['keychain', 'Cave', ''],
      ['keychain', 'Prêt', whole[4]!.transfer_id],
      ['keychain', 'vide', ''],
      ['transfer', 'Prêt', whole[4]!.transfer_id],
      ...[scheduled.id, twin.id].sort().map((id) => ['transfer', 'Loge', id]),
    ])
    // 5 keychains and 3 transfers: batches of 1 and 2 break both lists, of 3 end the transfers full, of 1 and 5
    // end the keychains full: the empty batch after them, with no record to send, must not stall the stream.
    for (const size of [1, 2, 3, 5]) {
      batch.size = size
      expect(await exported(), `${size}`).toEqual(whole)
    }
  })

  it('says a keychain lent to the person is overdue only once its grace day after the to-date is over', async () => {
    const { admin, member, pret, overdue } = await departure()
    // "Prêt" due back today instead: out, not overdue yet.
    await t.db
      .update(transfers)
      .set({ toDate: parisDay(t, 0), endsAt: startOfDayIn('Europe/Paris', parisDay(t, 0)) })
      .where(eq(transfers.id, overdue.id))
    const page = await (
      await t.get(`/api/reports/holdings?person=${member.id}`, { cookie: admin.cookie })
    ).json()
    expect(page.data.find((held: { id: string }) => held.id === pret.id).dueBack).toEqual({
      transferId: overdue.id,
      toDate: parisDay(t, 0),
      overdue: false,
    })
  })

  it('answers 404 for someone of another organization or no one, and 400 without a person or with a malformed one', async () => {
    const { admin } = await departure()
    const stranger = await organizationWithAdmin(t, 'Étrangère')
    for (const path of [
      '/api/reports/holdings',
      '/api/reports/holdings/transfers',
      '/api/reports/holdings/export',
    ]) {
      for (const person of [stranger.admin.id, '00000000-0000-4000-8000-000000000000']) {
        const response = await t.get(`${path}?person=${person}`, { cookie: admin.cookie })
        expect(response.status, path).toBe(404)
        expect((await response.json()).error.code).toBe('not_found')
      }
      for (const [query, message] of [
        ['', 'Choose a person.'],
        ['?person=me', 'Malformed id.'],
        // The export ignores the cursor: it is the whole report.
        ...(path.endsWith('/export')
          ? []
          : [
              ...['not-an-id', `x${admin.id}`, `${admin.id}0`].map(
                (id) =>
                  [`?person=${admin.id}&cursor=${encodeCursor(['a', id])}`, 'Malformed cursor.'] as const,
              ),
            ]),
      ] as const) {
        const response = await t.get(`${path}${query}`, { cookie: admin.cookie })
        expect(response.status, `${path}${query}`).toBe(400)
        const { error } = await response.json()
        expect(error.code).toBe('validation_failed')
        expect(JSON.stringify(error)).toContain(message)
      }
    }
  })
})
