import { describe, expect, it } from 'vitest'
import { makeOrder, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { untilALockIsAwaited } from '../../../tests/server/locks.ts'
import { moveOrder } from './transitions.ts'

const t = setupTestApp()

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
    await untilALockIsAwaited(t)
    releaseFirst()
    expect((await first).status).toBe('PRODUCING')
    const refused = await second
    expect(refused).toMatchObject({ status: 409, fields: { allowed: ['SHIPPED'] } })
  })
})
