import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECOND } from '../../../tests/server/clock.ts'
import { openTestDatabaseTwice } from '../../../tests/server/database.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { createTestApp, type TestApp } from '../../../tests/server/harness.ts'
import { type Reply, startReceiver } from '../../../tests/server/webhook-receiver.ts'
import type { Database } from '../../db/client.ts'
import { webhookDeliveries } from '../../db/schema.ts'
import { createJobs } from '../../job-handlers.ts'
import { enqueueWebhookEvent } from './enqueue.ts'

/**
 * Two job runners on two connections (two pools on PostgreSQL, as two server processes have) drain the same
 * deliveries at once: each event is accepted exactly once, whoever sends it, retries included.
 */
let databases: [Database, Database]
let t: TestApp
let receiver: Awaited<ReturnType<typeof startReceiver>>
const EVENTS = 30

beforeAll(async () => {
  databases = await openTestDatabaseTwice()
  t = await createTestApp({ database: databases[0] })
  // Even events fail their first attempt; every answer takes 20 ms, so the runners overlap.
  receiver = await startReceiver(
    (eventId, attempt): Reply => (attempt === 1 && eventId.endsWith('0') ? 'fail' : 'accept'),
    { delayMs: 20 },
  )
})
afterAll(async () => {
  await receiver.close()
  await t.close()
  await databases[1].close()
  await databases[0].close()
})

describe('two job runners racing', () => {
  it('never deliver an event twice as accepted', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const created = await t.post('/api/webhooks', {
      cookie: admin.cookie,
      json: { url: receiver.url, eventTypes: ['order.status_changed'] },
    })
    const { endpoint } = await created.json()
    for (let n = 0; n < EVENTS; n += 1) {
      const eventId = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`
      await t.db.transaction((tx) =>
        enqueueWebhookEvent(tx, {
          organizationId: organization.id,
          type: 'order.status_changed',
          occurredAt: t.clock.now(),
          eventId,
          data: { n },
        }),
      )
    }
    const first = createJobs({ ...t.deps, database: databases[0] }, 'worker-a')
    const second = createJobs({ ...t.deps, database: databases[1] }, 'worker-b')
    let ranFirst = 0
    let ranSecond = 0
    for (let round = 0; round < 3; round += 1) {
      // The first round races the two runners over every first attempt. A claim takes an organization's next
      // due job only, so the runner whose claim comes second may find it taken and end its round: in the next
      // rounds (the retries of the failed attempts) the runner that has run less asks alone first, so that both
      // take part whatever the machine's speed.
      const [a, b] =
        round === 0
          ? await Promise.all([first.drain(), second.drain()])
          : ranSecond <= ranFirst
            ? await second.drain().then(async (b) => [await first.drain(), b] as const)
            : await first.drain().then(async (a) => [a, await second.drain()] as const)
      ranFirst += a
      ranSecond += b
      t.clock.advance(60 * SECOND)
    }
    // Both took part; each event went out once or twice (the failed first tries), accepted once.
    expect(ranFirst).toBeGreaterThan(0)
    expect(ranSecond).toBeGreaterThan(0)
    expect(ranFirst + ranSecond).toBe(EVENTS + 3)
    const accepted = receiver.accepted().map((entry) => JSON.parse(entry.body).id)
    expect(accepted).toHaveLength(EVENTS)
    expect(new Set(accepted).size).toBe(EVENTS)
    const rows = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    expect(rows.filter((row) => row.status === 'succeeded')).toHaveLength(EVENTS)
  })
})
