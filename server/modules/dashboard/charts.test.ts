import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { DASHBOARD_CHART_WEEKS } from '../../../contract/dashboard.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { makeTransfer, parisDay, transferWorld } from '../../../tests/server/transfers.ts'
import { transfers } from '../../db/schema.ts'
import { weekStarts } from './charts.ts'

const t = setupTestApp()

const charts = async (cookie: string) => {
  const response = await t.get('/api/stats/dashboard/charts', { cookie })
  expect(response.status).toBe(200)
  return response.json()
}

describe('weekStarts', () => {
  it('gives the Monday of each of the last 12 weeks in the zone, and the next one', () => {
    // Tuesday 15 January 2030 in Paris; a Sunday late evening in UTC is already Monday in Paris.
    const weeks = weekStarts('Europe/Paris', new Date('2030-01-15T09:00:00Z'))
    expect(weeks).toHaveLength(DASHBOARD_CHART_WEEKS + 1)
    expect(weeks.at(-2)).toBe('2030-01-14')
    expect(weeks.at(-1)).toBe('2030-01-21')
    expect(weeks[0]).toBe('2029-10-29')
    expect(weekStarts('Europe/Paris', new Date('2030-01-13T23:30:00Z')).at(-2)).toBe('2030-01-14')
    expect(weekStarts('UTC', new Date('2030-01-13T23:30:00Z')).at(-2)).toBe('2030-01-07')
  })
})

describe('GET /api/stats/dashboard/charts (issue 23)', () => {
  it('counts each keychain once by status: late, out, scheduled, held, no holder', async () => {
    const { organization, admin, member, contact, keychain } = await transferWorld(t, { name: 'Statuts' })
    const other = await organizationWithAdmin(t, 'Autre')
    await makeKeychain(t, other.organization.id, 'Ailleurs', other.admin.id)
    const make = (name: string, custodian?: string) => makeKeychain(t, organization.id, name, custodian)
    const late = await make('En retard', contact.id)
    const out = await make('Dehors', contact.id)
    const scheduled = await make('Prévu')
    const both = await make('Dehors et prévu', contact.id)
    await make('Chez l’admin', admin.id)
    await make('Libre 1')
    await make('Libre 2')
    // Deleted (soft), held or not: counted nowhere, as the total leaves them out.
    for (const gone of [await make('Supprimé tenu', member.id), await make('Supprimé libre')])
      expect((await t.delete(`/api/keychains/${gone.id}`, { cookie: admin.cookie })).status).toBe(204)
    const lend = (keychainId: string, fromDate: string, toDate: string, status?: 'TRANSFERRED') =>
      makeTransfer(t, {
        organizationId: organization.id,
        keychainId,
        recipientId: contact.id,
        fromDate,
        toDate,
        status,
      })
    await lend(late.id, parisDay(t, -10), parisDay(t, -3), 'TRANSFERRED')
    await lend(out.id, parisDay(t, -1), parisDay(t, 2), 'TRANSFERRED')
    await lend(scheduled.id, parisDay(t), parisDay(t, 2))
    await lend(both.id, parisDay(t, -1), parisDay(t, 1), 'TRANSFERRED')
    await lend(both.id, parisDay(t, 3), parisDay(t, 5))
    // Expired before pickup, returned and cancelled transfers change nothing.
    await lend(keychain.id, parisDay(t, -6), parisDay(t, -4))
    const returned = await make('Rendu')
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: returned.id,
      recipientId: member.id,
      status: 'RETURNED',
    })

    const { keychainsByStatus } = await charts(admin.cookie)
    // "Cave" (the member's), "Chez l’admin": held; "Libre 1", "Libre 2", "Rendu": no holder.
    expect(keychainsByStatus).toEqual({ noHolder: 3, held: 2, scheduled: 1, out: 2, late: 1 })
    const total = Object.values(keychainsByStatus as Record<string, number>).reduce((sum, n) => sum + n, 0)
    const figures = (await (await t.get('/api/stats/dashboard', { cookie: admin.cookie })).json())
      .organization
    expect(total).toBe(figures.keychains)
    expect((await charts(other.admin.cookie)).keychainsByStatus).toEqual({
      noHolder: 0,
      held: 1,
      scheduled: 0,
      out: 0,
      late: 0,
    })
  })

  it('counts the transfers authorized each of the last 12 weeks as the allowance does', async () => {
    const { organization, admin, member, keychain } = await transferWorld(t, { name: 'Semaines' })
    const authorizedOn = async (at: string, status?: 'CANCELLED' | 'RETURNED') => {
      const transfer = await makeTransfer(t, {
        organizationId: organization.id,
        keychainId: keychain.id,
        recipientId: member.id,
        status,
      })
      await t.db
        .update(transfers)
        .set({ createdAt: new Date(at) })
        .where(eq(transfers.id, transfer.id))
    }
    // This week began on Monday 14 January 2030, 00:00 in Paris (13 January 23:00 UTC).
    await authorizedOn('2030-01-15T08:00:00Z')
    await authorizedOn('2030-01-13T23:00:00Z')
    await authorizedOn('2030-01-13T22:59:59Z', 'RETURNED')
    await authorizedOn('2030-01-14T10:00:00Z', 'CANCELLED')
    await authorizedOn('2029-10-29T10:00:00Z')
    // Before the 12 weeks.
    await authorizedOn('2029-10-28T10:00:00Z')
    const { transfersPerWeek } = await charts(admin.cookie)
    expect(transfersPerWeek).toHaveLength(DASHBOARD_CHART_WEEKS)
    expect(transfersPerWeek.map((week: { week: string }) => week.week)).toEqual(
      Array.from({ length: DASHBOARD_CHART_WEEKS }, (_, index) => shiftCalendarDay('2029-10-29', 7 * index)),
    )
    const counts = transfersPerWeek.map((week: { count: number }) => week.count)
    expect(counts).toEqual([1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
  })

  it('answers a MEMBER, refuses a CONTACT (403) and a caller with no organization selected (400)', async () => {
    const { organization } = await organizationWithAdmin(t, 'Accès')
    const member = await signedInMember(t, organization.id, 'MEMBER')
    const contact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get('/api/stats/dashboard/charts', { cookie: member.cookie })).status).toBe(200)
    expect((await t.get('/api/stats/dashboard/charts', { cookie: contact.cookie })).status).toBe(403)
    const { cookie } = await t.signIn(uniqueEmail())
    expect((await t.get('/api/stats/dashboard/charts', { cookie })).status).toBe(400)
    expect((await t.get('/api/stats/dashboard/charts')).status).toBe(401)
  })

  it('costs at most 3 statements whatever the organization’s size', async () => {
    const world = await transferWorld(t, { name: 'Coût' })
    const { result, statements } = await statementsOf(() =>
      t.get('/api/stats/dashboard/charts', { cookie: world.admin.cookie }),
    )
    expect(result.status).toBe(200)
    expect(statements.length, statements.join('\n')).toBeLessThanOrEqual(3)
  })
})
