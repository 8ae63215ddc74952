import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WEBHOOK_ENDPOINTS_MAX } from '../../../contract/webhooks.ts'
import { makeOrder, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { createTestApp, setupTestApp, type TestApp } from '../../../tests/server/harness.ts'
import { startReceiver } from '../../../tests/server/webhook-receiver.ts'
import { jobs, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.ts'
import { sealSecret } from '../../shared/secret-box.ts'
import { moveOrder } from '../orders/transitions.ts'
import { enqueueWebhookEvent } from './enqueue.ts'
import { verifyWebhookSignature } from './signature.ts'

const t = setupTestApp()
let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  receiver = await startReceiver(() => 'accept')
})
afterAll(async () => receiver.close())

const ORDERS = { eventTypes: ['order.status_changed'] }

async function adminWithWebhook(json: Record<string, unknown> = {}) {
  const { organization, admin } = await organizationWithAdmin(t)
  const response = await t.post('/api/webhooks', {
    cookie: admin.cookie,
    json: { url: receiver.url, ...ORDERS, ...json },
  })
  expect(response.status).toBe(201)
  const { endpoint, secret } = await response.json()
  return { organization, admin, endpoint, secret: secret as string }
}

async function confirmAnOrder(organizationId: string) {
  const order = await makeOrder(t, organizationId, { status: 'PAID' })
  await moveOrder(t.db, { orderId: order.id, to: 'CONFIRMED', now: t.clock.now() })
  return order
}

/** The one request the receiver got with that event id. */
function sentWith(eventId: string) {
  const matching = receiver.received.filter((entry) => entry.headers['trousseau-event-id'] === eventId)
  expect(matching).toHaveLength(1)
  return matching[0]
}

const deliveriesOf = (endpointId: string) =>
  t.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId))

describe('/api/webhooks', () => {
  it('answers the secret once, at creation; lists the webhook with its hint only', async () => {
    const { admin, endpoint, secret } = await adminWithWebhook({ description: ' ERP ' })
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/)
    expect(endpoint).toMatchObject({
      url: receiver.url,
      description: 'ERP',
      eventTypes: ['order.status_changed'],
      enabled: true,
      secretHint: `…${secret.slice(-4)}`,
    })
    const list = await (await t.get('/api/webhooks', { cookie: admin.cookie })).json()
    expect(list).toEqual({ data: [endpoint] })
    expect(JSON.stringify(list)).not.toContain(secret)
  })

  it('refuses bad input with 400 and the field', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    for (const json of [
      { url: 'ftp://example.com/hook', ...ORDERS },
      { url: 'http://example.com/hook', ...ORDERS },
      { url: 'https://user:pass@example.com/hook', ...ORDERS },
      { url: 'https://example.com/hook', eventTypes: [] },
      { url: 'https://example.com/hook', eventTypes: ['keychain.created'] },
      { url: 'https://example.com/hook' },
    ]) {
      const response = await t.post('/api/webhooks', { cookie: admin.cookie, json })
      expect(response.status, JSON.stringify(json)).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
    const created = await t.post('/api/webhooks', {
      cookie: admin.cookie,
      json: { url: 'https://example.com/hook', ...ORDERS },
    })
    const { endpoint } = await created.json()
    const empty = await t.patch(`/api/webhooks/${endpoint.id}`, { cookie: admin.cookie, json: {} })
    expect(empty.status).toBe(400)
    const list = await (await t.get('/api/webhooks', { cookie: admin.cookie })).json()
    expect(list.data.map((each: { organizationId?: string; url: string }) => each.url)).toEqual([
      'https://example.com/hook',
    ])
    expect(organization.id).toBeTruthy()
  })

  it('is for ADMINs only, and another organization’s webhook answers 404', async () => {
    const { organization, endpoint } = await adminWithWebhook()
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    expect((await t.get('/api/webhooks', { cookie: manager.cookie })).status).toBe(403)
    const other = await organizationWithAdmin(t)
    const cookie = other.admin.cookie
    expect((await t.patch(`/api/webhooks/${endpoint.id}`, { cookie, json: { enabled: false } })).status).toBe(
      404,
    )
    expect((await t.delete(`/api/webhooks/${endpoint.id}`, { cookie })).status).toBe(404)
    expect((await t.get(`/api/webhooks/${endpoint.id}/deliveries`, { cookie })).status).toBe(404)
    expect((await t.post(`/api/webhooks/${endpoint.id}/tests`, { cookie })).status).toBe(404)
    expect((await t.post(`/api/webhooks/${endpoint.id}/secret-rotations`, { cookie })).status).toBe(404)
  })

  it('sends only the subscribed kinds, to enabled endpoints; one event id for every endpoint', async () => {
    const { organization, admin, endpoint } = await adminWithWebhook()
    const second = await (
      await t.post('/api/webhooks', { cookie: admin.cookie, json: { url: receiver.url, ...ORDERS } })
    ).json()
    const transfersOnly = await (
      await t.post('/api/webhooks', {
        cookie: admin.cookie,
        json: { url: receiver.url, eventTypes: ['transfer.authorized'] },
      })
    ).json()
    await confirmAnOrder(organization.id)
    const [one] = await deliveriesOf(endpoint.id)
    const [two] = await deliveriesOf(second.endpoint.id)
    expect(one!.eventId).toBe(two!.eventId)
    expect(await deliveriesOf(transfersOnly.endpoint.id)).toHaveLength(0)

    const disabled = await t.patch(`/api/webhooks/${endpoint.id}`, {
      cookie: admin.cookie,
      json: { enabled: false },
    })
    expect(await disabled.json()).toMatchObject({ enabled: false })
    await confirmAnOrder(organization.id)
    expect(await deliveriesOf(endpoint.id)).toHaveLength(1)
    expect(await deliveriesOf(second.endpoint.id)).toHaveLength(2)
  })

  it('sends a signed test on demand (even disabled), shown in the log with its attempt', async () => {
    const { admin, endpoint, secret } = await adminWithWebhook()
    await t.patch(`/api/webhooks/${endpoint.id}`, { cookie: admin.cookie, json: { enabled: false } })
    const queued = await t.post(`/api/webhooks/${endpoint.id}/tests`, { cookie: admin.cookie })
    expect(queued.status).toBe(202)
    const delivery = await queued.json()
    expect(delivery).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: [] })
    const sent = sentWith(delivery.eventId)
    const body = JSON.parse(sent!.body)
    expect(body).toMatchObject({ type: 'webhook.test', data: { webhookId: endpoint.id } })
    const header = String(sent!.headers['trousseau-signature'])
    const now = Math.floor(t.clock.now().getTime() / 1000)
    expect(verifyWebhookSignature(header, sent!.body, secret, now)).toBe(true)

    const log = await (
      await t.get(`/api/webhooks/${endpoint.id}/deliveries`, { cookie: admin.cookie })
    ).json()
    expect(log.data).toHaveLength(1)
    expect(log.data[0]).toMatchObject({
      eventId: body.id,
      status: 'succeeded',
      nextAttemptAt: null,
      attempts: [{ attempt: 1, statusCode: 204, error: null, nextAttemptAt: null }],
    })
  })

  it('limits test sends to ten a minute per organization, across its endpoints', async () => {
    const { admin, endpoint } = await adminWithWebhook()
    const second = await (
      await t.post('/api/webhooks', { cookie: admin.cookie, json: { url: receiver.url, ...ORDERS } })
    ).json()
    for (let i = 0; i < 10; i += 1) {
      const id = i % 2 === 0 ? endpoint.id : second.endpoint.id
      expect((await t.post(`/api/webhooks/${id}/tests`, { cookie: admin.cookie })).status).toBe(202)
    }
    for (const id of [endpoint.id, second.endpoint.id]) {
      const refused = await t.post(`/api/webhooks/${id}/tests`, { cookie: admin.cookie })
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
      expect((await refused.json()).error).toMatchObject({
        code: 'rate_limited',
        message: /10 tests a minute/,
      })
    }
    const other = await adminWithWebhook()
    expect(
      (await t.post(`/api/webhooks/${other.endpoint.id}/tests`, { cookie: other.admin.cookie })).status,
    ).toBe(202)
    t.clock.advance(60_000)
    expect((await t.post(`/api/webhooks/${endpoint.id}/tests`, { cookie: admin.cookie })).status).toBe(202)
  })

  it('tries a test send once: a failure is final, with no retry queued', async () => {
    const failing = await startReceiver(() => 'fail')
    try {
      const { admin } = await organizationWithAdmin(t)
      const created = await t.post('/api/webhooks', {
        cookie: admin.cookie,
        json: { url: failing.url, ...ORDERS },
      })
      const { endpoint } = await created.json()
      const queued = await (
        await t.post(`/api/webhooks/${endpoint.id}/tests`, { cookie: admin.cookie })
      ).json()
      t.clock.advance(24 * 60 * 60_000)
      await t.runJobs()
      expect(failing.received).toHaveLength(1)
      const log = await (
        await t.get(`/api/webhooks/${endpoint.id}/deliveries`, { cookie: admin.cookie })
      ).json()
      expect(log.data).toEqual([
        expect.objectContaining({
          id: queued.id,
          status: 'failed',
          nextAttemptAt: null,
          attempts: [expect.objectContaining({ attempt: 1, statusCode: 500, nextAttemptAt: null })],
        }),
      ])
      const [job] = await t.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `webhook:${queued.id}`))
      expect(job).toMatchObject({ attempts: 1, maxAttempts: 1 })
      expect(job!.doneAt).not.toBeNull()
    } finally {
      await failing.close()
    }
  })

  it(`holds at most ${WEBHOOK_ENDPOINTS_MAX} webhooks per organization (409 beyond), even asked at once`, async () => {
    const { admin } = await organizationWithAdmin(t)
    const create = (n: number) =>
      t.post('/api/webhooks', {
        cookie: admin.cookie,
        json: { url: `https://hooks.example.com/${n}`, ...ORDERS },
      })
    const ids: string[] = []
    for (let n = 0; n < WEBHOOK_ENDPOINTS_MAX - 2; n += 1) {
      const created = await create(n)
      expect(created.status).toBe(201)
      ids.push((await created.json()).endpoint.id)
    }
    const atOnce = await Promise.all([1, 2, 3, 4].map((n) => create(100 + n)))
    expect(atOnce.map((response) => response.status).sort()).toEqual([201, 201, 409, 409])
    const refused = await create(200)
    expect(refused.status).toBe(409)
    expect((await refused.json()).error).toMatchObject({
      code: 'webhook_limit_reached',
      message: expect.stringContaining(`${WEBHOOK_ENDPOINTS_MAX} webhooks`),
    })
    const list = await (await t.get('/api/webhooks', { cookie: admin.cookie })).json()
    expect(list.data).toHaveLength(WEBHOOK_ENDPOINTS_MAX)

    // Another organization has its own ten; a deleted webhook frees a place.
    const other = await organizationWithAdmin(t)
    const elsewhere = await t.post('/api/webhooks', {
      cookie: other.admin.cookie,
      json: { url: 'https://hooks.example.com/other', ...ORDERS },
    })
    expect(elsewhere.status).toBe(201)
    expect((await t.delete(`/api/webhooks/${ids[0]}`, { cookie: admin.cookie })).status).toBe(204)
    expect((await create(300)).status).toBe(201)
  })

  it('rotates the secret: the new one is answered once and signs from then on, the old one no more', async () => {
    const { admin, endpoint, secret } = await adminWithWebhook()
    const rotated = await t.post(`/api/webhooks/${endpoint.id}/secret-rotations`, { cookie: admin.cookie })
    expect(rotated.status).toBe(201)
    const { secret: fresh, endpoint: after } = await rotated.json()
    expect(fresh).not.toBe(secret)
    expect(after.secretHint).toBe(`…${fresh.slice(-4)}`)
    const test = await (await t.post(`/api/webhooks/${endpoint.id}/tests`, { cookie: admin.cookie })).json()
    const sent = sentWith(test.eventId)
    const header = String(sent!.headers['trousseau-signature'])
    const now = Math.floor(t.clock.now().getTime() / 1000)
    expect(verifyWebhookSignature(header, sent!.body, fresh, now)).toBe(true)
    expect(verifyWebhookSignature(header, sent!.body, secret, now)).toBe(false)
  })

  it('deletes a webhook with its log; its pending deliveries’ jobs end without sending', async () => {
    const { organization, admin, endpoint } = await adminWithWebhook()
    await t.db.transaction((tx) =>
      enqueueWebhookEvent(tx, {
        organizationId: organization.id,
        type: 'order.status_changed',
        occurredAt: t.clock.now(),
        data: {},
      }),
    )
    const [pending] = await deliveriesOf(endpoint.id)
    expect((await t.delete(`/api/webhooks/${endpoint.id}`, { cookie: admin.cookie })).status).toBe(204)
    expect(await deliveriesOf(endpoint.id)).toHaveLength(0)
    const before = receiver.received.length
    await t.runJobs()
    expect(receiver.received).toHaveLength(before)
    const [job] = await t.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `webhook:${pending!.id}`))
    expect(job!.doneAt).not.toBeNull()
    expect((await t.get(`/api/webhooks/${endpoint.id}/deliveries`, { cookie: admin.cookie })).status).toBe(
      404,
    )
  })
})

describe('private targets refused (WEBHOOK_ALLOW_PRIVATE_TARGETS unset or false, the default)', () => {
  let strict: TestApp
  beforeAll(async () => {
    strict = await createTestApp({ config: { webhookAllowPrivateTargets: false } })
  })
  afterAll(async () => strict.close())

  it('refuses loopback and private addresses in the form, and at send time', async () => {
    const { organization, admin } = await organizationWithAdmin(strict)
    for (const url of [
      receiver.url,
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://localhost/hook',
    ]) {
      const response = await strict.post('/api/webhooks', { cookie: admin.cookie, json: { url, ...ORDERS } })
      expect(response.status, url).toBe(400)
      expect((await response.json()).error.issues).toEqual([{ path: 'url', message: expect.any(String) }])
    }
    // A row that got there while allowed is refused when sent: the receiver sees nothing.
    const [row] = await strict.db
      .insert(webhookEndpoints)
      .values({
        organizationId: organization.id,
        url: receiver.url,
        eventTypes: ['order.status_changed'],
        secretBox: sealSecret(strict.deps.secret, 'whsec_test'),
        secretHint: '…test',
        createdAt: strict.clock.now(),
        updatedAt: strict.clock.now(),
      })
      .returning()
    const before = receiver.received.length
    const order = await makeOrder(strict, organization.id, { status: 'PAID' })
    await moveOrder(strict.db, { orderId: order.id, to: 'CONFIRMED', now: strict.clock.now() })
    await strict.runJobs()
    expect(receiver.received).toHaveLength(before)
    const [delivery] = await strict.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, row!.id))
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, lastStatusCode: null })
    const [attempt] = await strict.db
      .select()
      .from(webhookAttempts)
      .where(eq(webhookAttempts.deliveryId, delivery!.id))
    expect(attempt).toMatchObject({ error: 'connection_failed', statusCode: null })
  })

  it('answers a name inside the network as one that does not exist: the log does not tell them apart', async () => {
    const { organization, admin } = await organizationWithAdmin(strict)
    const logOf = async (url: string) => {
      const [row] = await strict.db
        .insert(webhookEndpoints)
        .values({
          organizationId: organization.id,
          url,
          eventTypes: ['order.status_changed'],
          secretBox: sealSecret(strict.deps.secret, 'whsec_test'),
          secretHint: '…test',
          createdAt: strict.clock.now(),
          updatedAt: strict.clock.now(),
        })
        .returning()
      const test = await strict.post(`/api/webhooks/${row!.id}/tests`, { cookie: admin.cookie })
      expect(test.status).toBe(202)
      await strict.runJobs()
      const log = await (
        await strict.get(`/api/webhooks/${row!.id}/deliveries`, { cookie: admin.cookie })
      ).json()
      const [delivery] = log.data
      return {
        status: delivery.status,
        attempts: delivery.attempts.map(
          ({ durationMs, startedAt, ...rest }: Record<string, unknown>) => rest,
        ),
      }
    }
    const inside = await logOf('https://localhost:9/hook')
    const nowhere = await logOf('https://no-such-host.invalid/hook')
    expect(inside).toEqual(nowhere)
    expect(inside).toEqual({
      status: 'failed',
      attempts: [{ attempt: 1, statusCode: null, error: 'connection_failed', nextAttemptAt: null }],
    })
  })

  it('answers an attempt logged as target_refused before as a failed connection', async () => {
    const { organization, admin } = await organizationWithAdmin(strict)
    const [endpoint] = await strict.db
      .insert(webhookEndpoints)
      .values({
        organizationId: organization.id,
        url: 'https://hooks.example.com/in',
        eventTypes: ['order.status_changed'],
        secretBox: sealSecret(strict.deps.secret, 'whsec_test'),
        secretHint: '…test',
        createdAt: strict.clock.now(),
        updatedAt: strict.clock.now(),
      })
      .returning()
    const [delivery] = await strict.db
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint!.id,
        organizationId: organization.id,
        eventId: crypto.randomUUID(),
        eventType: 'order.status_changed',
        body: '{}',
        status: 'failed',
        attempts: 1,
        createdAt: strict.clock.now(),
      })
      .returning()
    await strict.db.insert(webhookAttempts).values({
      deliveryId: delivery!.id,
      attempt: 1,
      startedAt: strict.clock.now(),
      durationMs: 0,
      error: 'target_refused',
    })
    const log = await (
      await strict.get(`/api/webhooks/${endpoint!.id}/deliveries`, { cookie: admin.cookie })
    ).json()
    expect(log.data[0].attempts[0]).toMatchObject({ error: 'connection_failed', statusCode: null })
  })
})
