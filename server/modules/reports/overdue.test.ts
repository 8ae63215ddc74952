import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { DAY } from '../../../tests/server/clock.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { makeTransfer, parisDay, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, transfers, users } from '../../db/schema.ts'
import { encodeCursor } from '../../http/pagination.ts'
import { OVERDUE_CSV_COLUMNS } from './overdue.ts'

const t = setupTestAppAtEpoch()

// The export's batch size, made small in one test so a few transfers span several batches.
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
 * Transfers out at the test epoch (15 January, 10:00 in Paris): "Cave" due back on the 10th (5 days late), "Loge"
 * and "Atelier" on the 13th (2 days), "Grenier" today (RETURNING, within its grace day: not late yet),
 * "Cour" on the 16th; a SCHEDULED one never picked up and a RETURNED one are not overdue either.
 */
async function lateWorld() {
  const world = await transferWorld(t, { name: 'Retards' })
  const { organization, member, contact } = world
  const out = async (
    name: string,
    recipientId: string,
    toDate: string,
    status: 'TRANSFERRED' | 'SCHEDULED' | 'RETURNED' = 'TRANSFERRED',
  ) => {
    const keychain = await makeKeychain(t, organization.id, name, recipientId)
    const transfer = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId,
      fromDate: parisDay(t, -12),
      toDate,
      status,
    })
    return { keychain, transfer }
  }
  const cave = await out('Cave', member.id, parisDay(t, -5))
  const loge = await out('Loge', contact.id, parisDay(t, -2))
  const atelier = await out('Atelier', member.id, parisDay(t, -2))
  await out('Grenier', member.id, parisDay(t, 0))
  await out('Cour', member.id, parisDay(t, 1))
  await out('Jamais', member.id, parisDay(t, -3), 'SCHEDULED')
  await out('Rendu', member.id, parisDay(t, -3), 'RETURNED')
  const pickedUpAt = new Date(t.clock.now().getTime() - 10 * DAY)
  await t.db.update(transfers).set({ pickedUpAt }).where(eq(transfers.id, cave.transfer.id))
  return { ...world, cave, loge, atelier, pickedUpAt }
}

type Overdue = { id: string; keychainName: string; daysLate: number; recipient: { id: string } }

async function everyPage(cookie: string, query = ''): Promise<Overdue[]> {
  const items: Overdue[] = []
  let cursor: string | null = null
  do {
    const response = await t.get(`/api/reports/overdue?limit=1${query}${cursor ? `&cursor=${cursor}` : ''}`, {
      cookie,
    })
    expect(response.status).toBe(200)
    const page: { data: Overdue[]; nextCursor: string | null } = await response.json()
    items.push(...page.data)
    cursor = page.nextCursor
  } while (cursor)
  return items
}

describe('overdue transfers', () => {
  it('lists exactly the transfers out more than a day past their to-date, most overdue first, with how late', async () => {
    const { admin, member, contact, cave, loge, atelier, pickedUpAt } = await lateWorld()
    const response = await t.get('/api/reports/overdue', { cookie: admin.cookie })
    const page = await response.json()
    const ordered = [cave, ...[loge, atelier].sort((a, b) => (a.transfer.id < b.transfer.id ? -1 : 1))]
    expect(page.data.map((item: Overdue) => item.id)).toEqual(ordered.map((each) => each.transfer.id))
    expect(page.data[0]).toEqual({
      id: cave.transfer.id,
      keychainId: cave.keychain.id,
      keychainName: 'Cave',
      recipient: { id: member.id, email: member.email, firstName: '', lastName: '' },
      fromDate: parisDay(t, -12),
      toDate: parisDay(t, -5),
      pickedUpAt: pickedUpAt.toISOString(),
      daysLate: 5,
    })
    expect(page.data.map((item: Overdue) => [item.keychainName, item.daysLate])).toEqual(
      ordered.map((each) => [each.keychain.name, each === cave ? 5 : 2]),
    )
    expect(page.data.find((item: Overdue) => item.id === loge.transfer.id).recipient.id).toBe(contact.id)
    expect((await everyPage(admin.cookie)).map((item) => item.id)).toEqual(
      ordered.map((each) => each.transfer.id),
    )
  })

  it('counts a transfer overdue from the start of the day after its to-date, in the organization’s zone', async () => {
    const { admin } = await lateWorld()
    // "Grenier" is due back on the 15th: overdue from midnight on the 16th in Paris (23:00 UTC on the 15th).
    t.clock.set(new Date('2030-01-15T22:59:59.999Z'))
    expect((await everyPage(admin.cookie)).map((item) => item.keychainName)).not.toContain('Grenier')
    t.clock.advance(1)
    const late = await everyPage(admin.cookie)
    expect(late.find((item) => item.keychainName === 'Grenier')?.daysLate).toBe(1)
    expect(late.map((item) => item.keychainName)).not.toContain('Cour')
  })

  it('narrows to one recipient, answers 404 for a person of another organization, 400 for a malformed one', async () => {
    const { admin, contact, loge } = await lateWorld()
    expect((await everyPage(admin.cookie, `&person=${contact.id}`)).map((item) => item.id)).toEqual([
      loge.transfer.id,
    ])
    const stranger = await organizationWithAdmin(t, 'Ailleurs')
    const foreign = await t.get(`/api/reports/overdue?person=${stranger.admin.id}`, { cookie: admin.cookie })
    expect(foreign.status).toBe(404)
    const foreignExport = await t.get(`/api/reports/overdue/export?person=${stranger.admin.id}`, {
      cookie: admin.cookie,
    })
    expect(foreignExport.status).toBe(404)
    for (const query of ['person=someone', 'limit=0', 'limit=101', 'cursor=%%%']) {
      const response = await t.get(`/api/reports/overdue?${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
  })

  it('exports them as CSV, and nothing of another organization', async () => {
    const { admin, member, cave, loge, atelier } = await lateWorld()
    const other = await lateWorld()
    const manager = await signedInMember(t, other.organization.id, 'MANAGER')
    const response = await t.get('/api/reports/overdue/export', { cookie: admin.cookie })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="overdue-transfers.csv"')
    const text = await response.text()
    expect(text.split('\r\n')[0]).toBe(OVERDUE_CSV_COLUMNS.join(','))
    const records = parse(text, { columns: true }) as Array<Record<string, string>>
    expect(records.map((record) => record.transfer_id).sort()).toEqual(
      [cave, loge, atelier].map((each) => each.transfer.id).sort(),
    )
    expect(records[0]).toEqual({
      transfer_id: cave.transfer.id,
      keychain_id: cave.keychain.id,
      keychain_name: 'Cave',
      recipient_email: member.email,
      recipient_name: '',
      from_date: parisDay(t, -12),
      to_date: parisDay(t, -5),
      picked_up_at: records[0]!.picked_up_at,
      days_late: '5',
    })
    const theirs = parse(
      await (await t.get('/api/reports/overdue/export', { cookie: manager.cookie })).text(),
      {
        columns: true,
      },
    ) as Array<Record<string, string>>
    expect(theirs.map((record) => record.transfer_id).sort()).toEqual(
      [other.cave, other.loge, other.atelier].map((each) => each.transfer.id).sort(),
    )
  })

  it('exports in batches, each going on after the last transfer of the one before (ties on the to-date by id)', async () => {
    const { admin, member, contact, cave, loge, atelier, pickedUpAt } = await lateWorld()
    await t.db.update(users).set({ firstName: 'Jeanne' }).where(eq(users.id, member.id))
    await t.db.update(users).set({ firstName: 'Paul', lastName: 'Loup' }).where(eq(users.id, contact.id))
    // A name a spreadsheet would read as a formula is written as text.
    await t.db.update(keychains).set({ name: '=Atelier' }).where(eq(keychains.id, atelier.keychain.id))
    const ordered = [cave, ...[loge, atelier].sort((a, b) => (a.transfer.id < b.transfer.id ? -1 : 1))]
    // Two per batch: Cave and the first of the two due on the same day, then the other one.
    batch.size = 2
    const text = await (await t.get('/api/reports/overdue/export', { cookie: admin.cookie })).text()
    expect(text.split('\r\n').filter((line) => line.startsWith('transfer_id'))).toHaveLength(1)
    const records = parse(text, { columns: true }) as Array<Record<string, string>>
    const names = { [member.id]: 'Jeanne', [contact.id]: 'Paul Loup' }
    const emails = { [member.id]: member.email, [contact.id]: contact.email }
    expect(records).toEqual(
      ordered.map(({ transfer, keychain }) => ({
        transfer_id: transfer.id,
        keychain_id: keychain.id,
        keychain_name: keychain === atelier.keychain ? "'=Atelier" : keychain.name,
        recipient_email: emails[transfer.recipientId],
        recipient_name: names[transfer.recipientId],
        from_date: parisDay(t, -12),
        to_date: transfer.toDate,
        picked_up_at: transfer === cave.transfer ? pickedUpAt.toISOString() : '',
        days_late: transfer === cave.transfer ? '5' : '2',
      })),
    )
    // A last batch exactly full: the next, empty one ends the file (no record twice, none lost).
    batch.size = 3
    const full = parse(await (await t.get('/api/reports/overdue/export', { cookie: admin.cookie })).text(), {
      columns: true,
    }) as Array<Record<string, string>>
    expect(full.map((record) => record.transfer_id)).toEqual(ordered.map((each) => each.transfer.id))
    // The filter holds in the export too.
    const theirs = parse(
      await (
        await t.get(`/api/reports/overdue/export?person=${contact.id}`, { cookie: admin.cookie })
      ).text(),
      { columns: true },
    ) as Array<Record<string, string>>
    expect(theirs.map((record) => record.transfer_id)).toEqual([loge.transfer.id])
  })

  it('answers 400 for a cursor whose id is not exactly an id', async () => {
    const { admin } = await transferWorld(t, { name: 'Curseurs' })
    const id = '0b7c4a5e-1f2d-4c3b-8a9e-6d5f4e3c2b1a'
    for (const key of [
      ['2030-01-01T00:00:00.000Z', 'not-an-id'],
      ['2030-01-01T00:00:00.000Z', `x${id}`],
      ['2030-01-01T00:00:00.000Z', `${id}0`],
      ['2030-01-01T00:00:00.000Z', id.replaceAll('-', '')],
    ]) {
      const response = await t.get(`/api/reports/overdue?cursor=${encodeCursor(key)}`, {
        cookie: admin.cookie,
      })
      expect(response.status, key[1]).toBe(400)
      expect((await response.json()).error.message, key[1]).toBe('Malformed cursor.')
    }
    // An id in capitals is one.
    const upper = await t.get(
      `/api/reports/overdue?cursor=${encodeCursor(['2030-01-01T00:00:00.000Z', id.toUpperCase()])}`,
      {
        cookie: admin.cookie,
      },
    )
    expect(upper.status).toBe(200)
  })
})
