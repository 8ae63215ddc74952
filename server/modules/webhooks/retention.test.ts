import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { webhookAttempts, webhookDeliveries } from '../../db/schema.ts'
import { pruneExpired } from '../auth/housekeeping.ts'

const t = setupTestApp()
const DAY = 24 * 60 * 60 * 1000

describe('webhook delivery log retention', () => {
  it('drops settled deliveries older than 30 days with their attempts, and keeps recent and pending ones', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const created = await t.post('/api/webhooks', {
      cookie: admin.cookie,
      json: { url: 'https://hooks.example.com/in', eventTypes: ['order.status_changed'] },
    })
    expect(created.status).toBe(201)
    const { endpoint } = await created.json()
    const now = t.clock.now().getTime()
    const delivery = async (status: 'pending' | 'succeeded' | 'failed', ageMs: number) => {
      const [row] = await t.db
        .insert(webhookDeliveries)
        .values({
          endpointId: endpoint.id,
          organizationId: organization.id,
          eventId: randomUUID(),
          eventType: 'order.status_changed',
          body: '{}',
          status,
          attempts: 1,
          createdAt: new Date(now - ageMs),
        })
        .returning()
      await t.db.insert(webhookAttempts).values({
        deliveryId: row!.id,
        attempt: 1,
        startedAt: new Date(now - ageMs),
        durationMs: 12,
        statusCode: status === 'succeeded' ? 200 : 500,
      })
      return row!.id
    }
    const kept = [
      // The README promises 30 days.
      await delivery('succeeded', 29 * DAY),
      await delivery('failed', 29 * DAY),
      // Still being retried, however old: its next attempt must find it.
      await delivery('pending', 35 * DAY),
    ]
    const dropped = [await delivery('succeeded', 31 * DAY), await delivery('failed', 90 * DAY)]

    await pruneExpired(t.deps)

    const left = await t.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    expect(left.map((row) => row.id).sort()).toEqual([...kept].sort())
    for (const id of dropped) {
      const attempts = await t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id))
      expect(attempts).toEqual([])
    }
    const shown = await t.get(`/api/webhooks/${endpoint.id}/deliveries`, { cookie: admin.cookie })
    expect(shown.status).toBe(200)
    expect(((await shown.json()).data as { id: string }[]).map((row) => row.id).sort()).toEqual(
      [...kept].sort(),
    )
  })
})
