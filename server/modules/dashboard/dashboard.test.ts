import { describe, expect, it } from 'vitest'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import { makeKeychain, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeTransfer, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains } from '../../db/schema.ts'

const t = setupTestApp()

const keychainFigure = async (cookie: string) =>
  (await (await t.get('/api/stats/dashboard', { cookie })).json()).organization.keychains as number

describe('the dashboard’s keychain count (kept by triggers)', () => {
  it('follows keychains created and deleted one by one, in bulk, and per organization', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Comptée')
    const other = await organizationWithAdmin(t, 'Autre')
    expect(await keychainFigure(admin.cookie)).toBe(0)

    const created = await t.post('/api/keychains', { cookie: admin.cookie, json: { name: 'Cave' } })
    expect(created.status).toBe(201)
    const now = t.clock.now()
    const rows = Array.from({ length: 30 }, (_, index) => ({
      organizationId: organization.id,
      name: `Lot ${index}`,
      createdAt: now,
      updatedAt: now,
    }))
    await t.db.insert(keychains).values([...rows, { ...rows[0]!, organizationId: other.organization.id }])
    expect(await keychainFigure(admin.cookie)).toBe(31)
    expect(await keychainFigure(other.admin.cookie)).toBe(1)

    const id = ((await created.json()) as { id: string }).id
    expect((await t.delete(`/api/keychains/${id}`, { cookie: admin.cookie })).status).toBe(204)
    expect(await keychainFigure(admin.cookie)).toBe(30)
    await t.db.delete(keychains)
    expect(await keychainFigure(admin.cookie)).toBe(0)
    expect(await keychainFigure(other.admin.cookie)).toBe(0)
  })
})

describe('the dashboard’s keychains due back', () => {
  it('lists those due today and the late ones, longest late first, ten of each at most', async () => {
    const { organization, admin, contact } = await transferWorld(t, { name: 'Retours' })
    const lend = async (name: string, fromDate: string, toDate: string) => {
      const keychain = await makeKeychain(t, organization.id, name)
      return makeTransfer(t, {
        organizationId: organization.id,
        keychainId: keychain.id,
        recipientId: contact.id,
        fromDate,
        toDate,
        status: 'TRANSFERRED',
      })
    }
    // Today is the 15th in Paris: one due back today, twelve late by 1 to 12 days, one due tomorrow.
    const today = await lend('Aujourd’hui', '2030-01-10', '2030-01-15')
    const late = []
    for (let days = 1; days <= 12; days += 1) {
      late.push(await lend(`Retard ${days}`, '2029-12-20', shiftCalendarDay('2030-01-15', -days)))
    }
    await lend('Demain', '2030-01-10', '2030-01-16')
    const { organization: figures } = await (
      await t.get('/api/stats/dashboard', { cookie: admin.cookie })
    ).json()
    expect(figures.returns.dueToday).toEqual([
      {
        transferId: today.id,
        keychainId: today.keychainId,
        keychainName: 'Aujourd’hui',
        holder: { id: contact.id, email: contact.email, firstName: '', lastName: '' },
        toDate: '2030-01-15',
        chasedAt: null,
      },
    ])
    expect(figures.returns.overdue.map((each: { keychainName: string }) => each.keychainName)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Retard ${12 - index}`),
    )
    expect(figures.expired.returning).toBe(12)
  })
})
