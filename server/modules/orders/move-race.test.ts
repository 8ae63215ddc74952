import { sql } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeOrder, organizationWithAdmin } from '../../test/fixtures.ts'
import { setupTestApp } from '../../test/harness.ts'
import { moveOrder } from './transitions.ts'

const t = setupTestApp()

/** Until a backend of this database waits for a row lock (the second mover's UPDATE behind the first's). */
async function untilALockIsAwaited(): Promise<void> {
  for (let attempt = 0; attempt < 500; attempt += 1) {
    const result = (await t.db.execute(
      sql`select count(*)::int as waiting from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    )) as unknown as { rows: { waiting: number }[] }
    const [row] = result.rows
    if (row && row.waiting > 0) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error('The second move never waited for the first one’s row lock')
}

/**
 * Two moves of one order from the same status, interleaved on purpose (PostgreSQL only: PGlite runs one
 * transaction at a time, so there the second simply reads the new status). The first updates the row and holds
 * its transaction open; the second reads the old status, passes the transition check and reaches its UPDATE,
 * which waits for the first's row lock. When the first commits, the second's conditional
 * `UPDATE … WHERE status = <the status it checked>` matches no row and it answers 409 from the status it lost
 * to; an UPDATE by id alone would move the order twice.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('two moves of one order that overlap', () => {
  it('applies the first and refuses the second with the status it lost to', async () => {
    const { organization } = await organizationWithAdmin(t)
    const order = await makeOrder(t, organization.id, { status: 'CONFIRMED' })
    const now = t.clock.now()
    let releaseFirst: () => void = () => {}
    let firstHolds: () => void = () => {}
    const held = new Promise<void>((resolve) => {
      firstHolds = resolve
    })
    const first = moveOrder(t.db, { orderId: order.id, to: 'PRODUCING', now }, async () => {
      firstHolds()
      await new Promise<void>((resolve) => {
        releaseFirst = resolve
      })
    })
    await held
    const second = moveOrder(t.db, { orderId: order.id, to: 'PRODUCING', now }).then(
      () => 'moved',
      (error: { status?: number; fields?: { allowed?: string[] } }) => error,
    )
    await untilALockIsAwaited()
    releaseFirst()
    expect((await first).status).toBe('PRODUCING')
    const refused = await second
    expect(refused).toMatchObject({ status: 409, fields: { allowed: ['SHIPPED'] } })
  })
})
