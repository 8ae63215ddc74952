import { describe, expect, it } from 'vitest'
import { keychains } from '../../db/schema.ts'
import { organizationWithAdmin } from '../../test/fixtures.ts'
import { setupTestApp } from '../../test/harness.ts'

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
