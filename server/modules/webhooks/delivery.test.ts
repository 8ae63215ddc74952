import { createHmac } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { WEBHOOK_EVENT_TYPES } from '../../../contract/webhooks.ts'
import { SECOND, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { makeKeychain, makeOrder } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { authorize, dates, pickup, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { type Reply, startReceiver } from '../../../tests/server/webhook-receiver.ts'
import { webhookAttempts, webhookDeliveries } from '../../db/schema.ts'
import { moveOrder } from '../orders/transitions.ts'
import { verifyWebhookSignature } from './signature.ts'

/** Long enough that a loaded machine answers a 500 within it; each hung attempt costs this much. */
const TIMEOUT_MS = 2000
const t = setupTestApp({ config: { webhookTimeoutMs: TIMEOUT_MS } })
let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined
afterAll(async () => receiver?.close())

/** Every event's first attempt gets a 500, its second no answer (a timeout), its third a 204. */
const failTwice = (_eventId: string, attempt: number): Reply =>
  attempt === 1 ? 'fail' : attempt === 2 ? 'hang' : 'accept'

/** The signature as the README tells a receiver to check it, written out here without the server's code. */
function documentedCheck(header: string, body: string, secret: string) {
  const fields = Object.fromEntries(header.split(',').map((pair) => pair.split('=', 2)))
  const expected = createHmac('sha256', secret).update(`${fields.t}.${body}`).digest('hex')
  return { timestamp: Number(fields.t), valid: fields.v1 === expected }
}

const attemptsOf = (deliveryId: string) =>
  t.db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId))

describe('webhook deliveries through the job queue', () => {
  it('delivers every event once, signed, after a 500 and a timeout, with the backoff between attempts', async () => {
    t.clock.set(TEST_EPOCH)
    receiver = await startReceiver(failTwice)
    const world = await transferWorld(t)
    const { admin, member, contact, keychain, tag, organization } = world
    const created = await t.post('/api/webhooks', {
      cookie: admin.cookie,
      json: { url: receiver.url, eventTypes: [...WEBHOOK_EVENT_TYPES], description: 'ERP' },
    })
    expect(created.status).toBe(201)
    const { endpoint, secret } = await created.json()

    // A transfer authorized, picked up and returned; a found-key report; an order confirmed.
    const first = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
    expect((await pickup(t, contact.cookie, first.id)).status).toBe(201)
    expect((await pickup(t, member.cookie, first.id)).status).toBe(201)
    const report = { message: 'Trouvé à la gare.', contact: 'finder@example.test' }
    expect((await t.post(`/api/tags/${tag.publicId}/found-reports`, { json: report })).status).toBe(202)
    const order = await makeOrder(t, organization.id, { status: 'PAID' })
    await moveOrder(t.db, { orderId: order.id, to: 'CONFIRMED', now: t.clock.now() })
    await t.runJobs()
    const firstEvents = 5
    expect(receiver.received.map((entry) => entry.reply)).toEqual(Array(firstEvents).fill('fail'))

    // The second attempt waits 30 s (the queue's backoff), the third 60 s more.
    t.clock.advance(29 * SECOND)
    await t.runJobs()
    expect(receiver.received).toHaveLength(firstEvents)
    t.clock.advance(SECOND)
    await t.runJobs()
    expect(receiver.received.filter((entry) => entry.reply === 'hang')).toHaveLength(firstEvents)
    t.clock.advance(60 * SECOND)
    await t.runJobs()
    expect(receiver.accepted()).toHaveLength(firstEvents)

    // Overdue: a second keychain out past its to-date, found by the overdue reminder (09:00 the day after).
    const attic = await makeKeychain(t, organization.id, 'Grenier', member.id)
    const late = await (
      await authorize(t, admin.cookie, attic.id, dates(toMember(contact.id), '2030-01-15', '2030-01-16'))
    ).json()
    expect((await pickup(t, contact.cookie, late.id)).status).toBe(201)
    t.clock.set('2030-01-17T08:30:00.000Z')
    for (let round = 0; round < 4; round += 1) {
      await t.runJobs()
      t.clock.advance(5 * 60 * SECOND)
    }
    // Nothing more comes, however long one waits.
    t.clock.advance(24 * 60 * 60 * SECOND)
    await t.runJobs()

    const accepted = receiver.accepted()
    const bodies = accepted.map((entry) => JSON.parse(entry.body))
    expect(bodies.map((body) => body.type).sort()).toEqual(
      [
        'found_report.received',
        'order.status_changed',
        'transfer.authorized',
        'transfer.authorized',
        'transfer.overdue',
        'transfer.picked_up',
        'transfer.picked_up',
        'transfer.returned',
      ].sort(),
    )
    // Each event accepted exactly once, after exactly three requests, every one with a valid signature.
    const ids = bodies.map((body) => body.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) {
      expect(receiver.received.filter((entry) => entry.headers['trousseau-event-id'] === id)).toHaveLength(3)
    }
    for (const entry of receiver.received) {
      const header = String(entry.headers['trousseau-signature'])
      const { timestamp, valid } = documentedCheck(header, entry.body, secret)
      expect(valid).toBe(true)
      expect(verifyWebhookSignature(header, entry.body, secret, timestamp)).toBe(true)
      expect(verifyWebhookSignature(header, entry.body, `${secret}x`, timestamp)).toBe(false)
      expect(verifyWebhookSignature(header, `${entry.body} `, secret, timestamp)).toBe(false)
      expect(entry.headers['content-type']).toBe('application/json')
      expect(entry.headers['trousseau-event']).toBe(JSON.parse(entry.body).type)
    }
    const returned = bodies.find((body) => body.type === 'transfer.returned')
    expect(returned).toMatchObject({
      organizationId: organization.id,
      data: { transferIds: [first.id], keychainIds: [keychain.id], actorId: member.id },
    })
    expect(bodies.find((body) => body.type === 'order.status_changed').data).toEqual({
      orderId: order.id,
      from: 'PAID',
      to: 'CONFIRMED',
    })
    expect(bodies.find((body) => body.type === 'transfer.overdue').data).toMatchObject({
      transferIds: [late.id],
      holderId: contact.id,
      toDate: '2030-01-16',
    })

    // The log: three attempts each (500, no answer, 204) and the delivery settled.
    const deliveries = await t.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
    expect(deliveries).toHaveLength(8)
    for (const delivery of deliveries) {
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 3, lastStatusCode: 204 })
      const attempts = (await attemptsOf(delivery.id)).sort((a, b) => a.attempt - b.attempt)
      expect(attempts.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
        [1, 500, 'http_status'],
        [2, null, 'timeout'],
        [3, 204, null],
      ])
      expect(attempts[0]!.nextAttemptAt!.getTime() - attempts[0]!.startedAt.getTime()).toBe(30 * SECOND)
      expect(attempts[1]!.nextAttemptAt!.getTime() - attempts[1]!.startedAt.getTime()).toBe(60 * SECOND)
      expect(attempts[1]!.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 10)
      expect(attempts[2]!.nextAttemptAt).toBeNull()
    }
    // Six hung attempts of TIMEOUT_MS each, on a shared machine.
  }, 120_000)
})
