import { count, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { custodyLog, keychains, keys, memberships, tags } from '../db/schema.ts'
import { setupTestApp } from '../test/harness.ts'
import { DEMO_KEYCHAINS, DEMO_MEMBERS, DEMO_ORGANIZATION_ID, DEMO_TAGS, seedDemo } from './demo.ts'

const t = setupTestApp()

describe('seedDemo', () => {
  it('creates the demo organization once, and each demo member sees what their role allows', async () => {
    const first = await seedDemo(t.deps)
    expect(first).toMatchObject({ created: true, keychains: DEMO_KEYCHAINS, tags: DEMO_TAGS })
    expect(await seedDemo(t.deps)).toMatchObject({ created: false })

    const countOf = async (table: typeof keychains | typeof tags | typeof memberships) =>
      (
        await t.db.select({ n: count() }).from(table).where(eq(table.organizationId, DEMO_ORGANIZATION_ID))
      )[0]!.n
    expect(await countOf(keychains)).toBe(DEMO_KEYCHAINS)
    expect(await countOf(tags)).toBe(DEMO_TAGS)
    expect(await countOf(memberships)).toBe(DEMO_MEMBERS.length)
    expect((await t.db.select({ n: count() }).from(keys))[0]!.n).toBeGreaterThan(DEMO_KEYCHAINS * 2)
    expect((await t.db.select({ n: count() }).from(custodyLog))[0]!.n).toBe(40)

    const manager = await t.signIn('manager@demo.trousseau.test')
    expect(manager.profile.selectedOrganizationId).toBe(DEMO_ORGANIZATION_ID)
    const page = await (await t.get('/api/keychains?limit=100', { cookie: manager.cookie })).json()
    expect(page.data).toHaveLength(DEMO_KEYCHAINS)
    const free = await (await t.get('/api/tags?unused=true', { cookie: manager.cookie })).json()
    expect(free.data).toHaveLength(DEMO_TAGS - DEMO_KEYCHAINS)
    const contact = await t.signIn('contact@demo.trousseau.test')
    expect((await t.get('/api/keychains', { cookie: contact.cookie })).status).toBe(403)
  })
})
