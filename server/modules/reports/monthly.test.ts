import { parse } from 'csv-parse/sync'
import { describe, expect, it } from 'vitest'
import type { EVENT_KINDS } from '../../../contract/events.ts'
import { MONTHLY_KINDS } from '../../../contract/reports.ts'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { scans } from '../../db/schema.ts'
import { appendEvent } from '../events/append.ts'
import { MONTHLY_CSV_COLUMNS, monthRange } from './monthly.ts'

const t = setupTestAppAtEpoch()

type Month = { month: string; scans: number; entries: number; byKind: Record<string, number> }

/** An organization (Paris) with a MANAGER, and a way to write its ledger entries and scans at given instants. */
async function organization() {
  const { organization, admin } = await organizationWithAdmin(t, 'Mois')
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const [tag] = await makeTags(t, organization.id, 1, 'MOI')
  const entry = (kind: (typeof EVENT_KINDS)[number], at: string) =>
    t.db.transaction((tx) =>
      appendEvent(tx, { organizationId: organization.id, kind, actorId: admin.id, serverTime: new Date(at) }),
    )
  const scan = (at: string, result: 'resolved' | 'foreign' = 'resolved') =>
    t.db.insert(scans).values({
      userId: manager.id,
      organizationId: organization.id,
      value: tag!.code,
      result,
      tagId: tag!.id,
      serverTime: new Date(at),
    })
  return { organization, admin, manager, entry, scan }
}

const months = async (cookie: string, query = '') => {
  const response = await t.get(`/api/reports/monthly${query}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as { from: string; to: string; months: Month[] }
}

describe('activity per month', () => {
  it("counts each month's entries by kind and the members' scans of its tags, months of the organization's zone, empty months included", async () => {
    const { manager, entry, scan } = await organization()
    const other = await organization()
    // 23:30 UTC on 31 October is already November in Paris (UTC+1).
    await entry('keychain.created', '2029-10-31T22:59:59.999Z')
    await entry('transfer.authorized', '2029-10-31T23:30:00.000Z')
    await entry('transfer.authorized', '2029-11-20T10:00:00.000Z')
    await entry('transfer.picked_up', '2029-11-21T10:00:00.000Z')
    await entry('transfer.returned', '2030-01-10T10:00:00.000Z')
    await scan('2029-11-05T10:00:00.000Z')
    await scan('2029-11-06T10:00:00.000Z')
    await scan('2029-11-07T10:00:00.000Z', 'foreign')
    await scan('2030-01-15T08:00:00.000Z')
    // A scan's own ledger entry is not counted again among the entries: the scans are counted once.
    await entry('scan.recorded', '2029-11-05T10:00:00.000Z')
    await other.entry('transfer.authorized', '2029-11-20T10:00:00.000Z')
    await other.scan('2029-11-20T10:00:00.000Z')

    const report = await months(manager.cookie, '?from=2029-10&to=2030-01')
    expect(report.from).toBe('2029-10')
    expect(report.to).toBe('2030-01')
    const zero = Object.fromEntries(MONTHLY_KINDS.map((kind) => [kind, 0]))
    expect(report.months).toEqual([
      { month: '2029-10', scans: 0, entries: 1, byKind: { ...zero, 'keychain.created': 1 } },
      {
        month: '2029-11',
        scans: 2,
        entries: 3,
        byKind: { ...zero, 'transfer.authorized': 2, 'transfer.picked_up': 1 },
      },
      { month: '2029-12', scans: 0, entries: 0, byKind: zero },
      // The tag was made on the 15th (the test epoch), through the service that logs it.
      {
        month: '2030-01',
        scans: 1,
        entries: 2,
        byKind: { ...zero, 'transfer.returned': 1, 'tags.created': 1 },
      },
    ])
  })

  it('covers the last twelve months up to this one by default, or 36 from a first month', async () => {
    const { admin } = await organization()
    const report = await months(admin.cookie)
    expect([report.from, report.to, report.months.length]).toEqual(['2029-02', '2030-01', 12])
    const from = await months(admin.cookie, '?from=2029-06')
    expect([from.from, from.to, from.months.length]).toEqual(['2029-06', '2032-05', 36])
    const to = await months(admin.cookie, '?to=2029-06')
    expect([to.from, to.to]).toEqual(['2028-07', '2029-06'])
  })

  it('refuses malformed months, a range backwards or longer than 36 months, with a readable message', async () => {
    const { admin } = await organization()
    const cases: Array<[string, string]> = [
      ['?from=2029-13', 'Months are written YYYY-MM.'],
      ['?to=2029-1', 'Months are written YYYY-MM.'],
      ['?from=2030-02&to=2030-01', 'The last month comes before the first.'],
      ['?from=2026-12&to=2029-12', 'At most 36 months at a time.'],
    ]
    for (const [query, message] of cases) {
      const response = await t.get(`/api/reports/monthly${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
      const { error } = await response.json()
      expect(error.code, query).toBe('validation_failed')
      expect(JSON.stringify(error), query).toContain(message)
    }
  })

  it('exports the same months as CSV, one column per kind', async () => {
    const { admin, entry, scan } = await organization()
    await entry('key.added', '2029-12-03T10:00:00.000Z')
    await scan('2029-12-04T10:00:00.000Z')
    const response = await t.get('/api/reports/monthly/export?from=2029-11&to=2029-12', {
      cookie: admin.cookie,
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="activity-by-month.csv"')
    const text = await response.text()
    expect(text.split('\r\n')[0]).toBe(MONTHLY_CSV_COLUMNS.join(','))
    const records = parse(text, { columns: true }) as Array<Record<string, string>>
    expect(
      records.map((record) => [record.month, record.scans, record.entries, record['key.added']]),
    ).toEqual([
      ['2029-11', '0', '0', '0'],
      ['2029-12', '1', '1', '1'],
    ])
  })

  it("counts from the first instant of the first month to the last before the next, in the organization's zone; one month alone is a range", async () => {
    const { admin, entry, scan } = await organization()
    // December 2029 in Paris (UTC+1): from 23:00 UTC on 30 November to 23:00 UTC on 31 December, excluded.
    for (const at of [
      '2029-11-30T22:59:59.999Z',
      '2029-11-30T23:00:00.000Z',
      '2029-12-31T22:59:59.999Z',
      '2029-12-31T23:00:00.000Z',
    ]) {
      await entry('key.added', at)
      await scan(at)
    }
    const zero = Object.fromEntries(MONTHLY_KINDS.map((kind) => [kind, 0]))
    const december = await months(admin.cookie, '?from=2029-12&to=2029-12')
    expect(december).toEqual({
      from: '2029-12',
      to: '2029-12',
      months: [{ month: '2029-12', scans: 2, entries: 2, byKind: { ...zero, 'key.added': 2 } }],
    })
    // The months around it each hold one of each, at their own edge.
    const around = await months(admin.cookie, '?from=2029-11&to=2030-01')
    expect(around.months.map((month) => [month.month, month.scans, month.byKind['key.added']])).toEqual([
      ['2029-11', 1, 1],
      ['2029-12', 2, 2],
      ['2030-01', 1, 1],
    ])
  })

  it('refuses in the service too a range backwards or longer than 36 months (the query schema refuses them first)', () => {
    const range = (from: string, to: string) =>
      monthRange({ timeZone: 'Europe/Paris', now: new Date('2030-01-15T09:00:00Z'), query: { from, to } })
    expect(range('2029-12', '2029-12')).toEqual(['2029-12'])
    expect(range('2027-02', '2030-01')).toHaveLength(36)
    // Years are written with four digits, as they are read.
    expect(range('0999-11', '1000-02')).toEqual(['0999-11', '0999-12', '1000-01', '1000-02'])
    for (const [from, to, message] of [
      ['2030-02', '2030-01', 'The last month comes before the first.'],
      ['2027-01', '2030-01', 'At most 36 months at a time.'],
    ] as const) {
      let error: unknown
      try {
        range(from, to)
      } catch (thrown) {
        error = thrown
      }
      expect(error, `${from}..${to}`).toMatchObject({
        status: 400,
        code: 'validation_failed',
        message,
        issues: [{ path: 'to', message }],
      })
    }
  })
})
