import { randomUUID } from 'node:crypto'
import { and, count, eq } from 'drizzle-orm'
import Stripe from 'stripe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Order } from '../../../contract/commerce.ts'
import { MINUTE } from '../../../tests/server/clock.ts'
import { placeOrder, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { createTestApp, type TestApp } from '../../../tests/server/harness.ts'
import { lineItems, startStripeDouble } from '../../../tests/server/stripe-double.ts'
import { tags, users } from '../../db/schema.ts'

const SECRET = 'whsec_test_double'
let double: Awaited<ReturnType<typeof startStripeDouble>>
let t: TestApp

beforeAll(async () => {
  double = await startStripeDouble()
  const { hostname, port } = new URL(double.url)
  t = await createTestApp({
    config: {
      paymentProvider: 'stripe',
      stripeSecretKey: 'sk_test_double',
      stripeWebhookSecret: SECRET,
      stripeApiBase: { protocol: 'http', host: hostname, port: Number(port) },
    },
  })
})
afterAll(async () => {
  await t?.close()
  await double?.close()
})

async function startCheckout(cookie: string, orderId: string): Promise<string> {
  const response = await t.post(`/api/orders/${orderId}/sessions`, { cookie, json: {} })
  expect(response.status).toBe(201)
  const { url, provider } = await response.json()
  expect(provider).toBe('stripe')
  const id = url.split('/').at(-1) as string
  expect(double.sessions.get(id)?.url).toBe(url)
  return id
}

/** A Stripe event for a session as Stripe sends it, signed with the SDK's test helper. */
function signedEvent(type: string, sessionId: string, options: { id?: string; timestamp?: number } = {}) {
  const body = JSON.stringify({
    id: options.id ?? `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    api_version: Stripe.API_VERSION,
    created: Math.floor(t.clock.now().getTime() / 1000),
    livemode: false,
    data: { object: double.sessions.get(sessionId) },
  })
  const signature = Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret: SECRET,
    timestamp: options.timestamp ?? Math.floor(t.clock.now().getTime() / 1000),
  })
  return { body, signature }
}

/** Posted the way Stripe does: no Origin, no cookie. */
const deliver = (
  event: { body: string; signature: string },
  contentType = 'application/json; charset=utf-8',
) =>
  t.post('/api/payments/stripe/webhook', {
    body: event.body,
    origin: null,
    headers: { 'content-type': contentType, 'stripe-signature': event.signature },
  })

const statusOf = async (cookie: string, id: string) =>
  ((await (await t.get(`/api/orders/${id}`, { cookie })).json()) as Order).status

const tagCount = async (organizationId: string) =>
  (
    await t.db
      .select({ n: count() })
      .from(tags)
      .where(and(eq(tags.organizationId, organizationId)))
  )[0]!.n

describe('Stripe Checkout', () => {
  it('opens a Checkout Session with the order’s lines, shipping and VAT in EUR cents, and its URLs', async () => {
    const { admin } = await organizationWithAdmin(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, admin.id))
    const order = await placeOrder(t, admin.cookie, [tagItem(20, { alphaCode: 'STR', name: 'Bureau' })])
    const id = await startCheckout(admin.cookie, order.id)
    const create = double.requests.find(
      (request) => request.method === 'POST' && request.path === '/v1/checkout/sessions',
    )!
    expect(create.authorization).toBe('Bearer sk_test_double')
    expect(create.form.get('mode')).toBe('payment')
    expect(create.form.get('client_reference_id')).toBe(order.id)
    expect(create.form.get('metadata[orderId]')).toBe(order.id)
    expect(create.form.get('success_url')).toBe(
      `http://localhost:3000/en/app/order-result/success?order=${order.id}`,
    )
    expect(create.form.get('cancel_url')).toBe(
      `http://localhost:3000/en/app/order-result/cancel?order=${order.id}`,
    )
    expect(lineItems(create.form)).toEqual([
      { name: 'Tags “Bureau” from STR-00001', unitAmount: 250, quantity: 20, currency: 'eur' },
      { name: 'Shipping', unitAmount: 790, quantity: 1, currency: 'eur' },
      { name: 'VAT (20 %)', unitAmount: order.totals.taxInCents, quantity: 1, currency: 'eur' },
    ])
    expect(double.sessions.get(id)!.amount_total).toBe(order.totals.totalInCents)
    // A second click while the session is open gives the same one back.
    expect(await startCheckout(admin.cookie, order.id)).toBe(id)
  })

  it('fulfils on checkout.session.completed after re-reading the session; a replayed event has no effect', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(10, { alphaCode: 'WHK' })])
    const id = await startCheckout(admin.cookie, order.id)

    // The event claims completion, but Stripe (re-read) says the session is still open: nothing happens.
    const early = signedEvent('checkout.session.completed', id)
    expect((await deliver(early)).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('CREATED')

    double.complete(id)
    const event = signedEvent('checkout.session.completed', id)
    const reads = double.requests.filter((request) => request.method === 'GET').length
    const first = await deliver(event)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ received: true })
    expect(double.requests.filter((request) => request.method === 'GET').length).toBe(reads + 1)
    expect(await statusOf(admin.cookie, order.id)).toBe('PAID')
    expect(await tagCount(organization.id)).toBe(10)

    const replays = await Promise.all([deliver(event), deliver(event)])
    for (const replay of replays) {
      expect(replay.status).toBe(200)
      expect(await replay.json()).toEqual({ received: true, duplicate: true })
    }
    expect(await tagCount(organization.id)).toBe(10)
  })

  it('refuses a bad, missing or stale signature and a tampered body (400 invalid_signature)', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie)
    const id = await startCheckout(admin.cookie, order.id)
    double.complete(id)
    const event = signedEvent('checkout.session.completed', id)
    const wrongSecret = Stripe.webhooks.generateTestHeaderString({
      payload: event.body,
      secret: 'whsec_someone_else',
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    })
    const stale = signedEvent('checkout.session.completed', id, {
      timestamp: Math.floor((t.clock.now().getTime() - 10 * MINUTE) / 1000),
    })
    for (const bad of [
      { body: event.body, signature: wrongSecret },
      { body: event.body, signature: '' },
      { body: event.body.replace('"livemode":false', '"livemode":true'), signature: event.signature },
      stale,
    ]) {
      const response = await deliver(bad)
      expect(response.status).toBe(400)
      expect((await response.json()).error.code).toBe('invalid_signature')
    }
    expect(await statusOf(admin.cookie, order.id)).toBe('CREATED')
    // The raw body counts, whatever its content type says; Stripe sends no Origin.
    expect((await deliver(event, 'text/plain')).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('PAID')
  })

  it('marks a failed delayed payment UNPAID, then a success PAID', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie)
    const id = await startCheckout(admin.cookie, order.id)
    double.complete(id, 'unpaid')
    expect((await deliver(signedEvent('checkout.session.completed', id))).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('CREATED')
    expect((await deliver(signedEvent('checkout.session.async_payment_failed', id))).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('UNPAID')
    double.complete(id, 'paid')
    expect((await deliver(signedEvent('checkout.session.async_payment_succeeded', id))).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('PAID')
  })

  it('expires the order on checkout.session.expired of its current session only', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie)
    const first = await startCheckout(admin.cookie, order.id)
    double.expire(first)
    expect((await deliver(signedEvent('checkout.session.expired', first))).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('EXPIRED')

    const second = await startCheckout(admin.cookie, order.id)
    expect(second).not.toBe(first)
    const late = signedEvent('checkout.session.expired', first)
    expect((await deliver(late)).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('EXPIRED')
    double.complete(second)
    const checked = await t.post(`/api/orders/${order.id}/checks`, { cookie: admin.cookie, json: {} })
    expect((await checked.json()).status).toBe('PAID')
  })

  it('answers 503 when Stripe refuses, and acknowledges events it does not act on', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie)
    double.failNextRequest()
    const response = await t.post(`/api/orders/${order.id}/sessions`, { cookie: admin.cookie, json: {} })
    expect(response.status).toBe(503)
    expect((await response.json()).error.code).toBe('service_unavailable')
    const id = await startCheckout(admin.cookie, order.id)
    expect((await deliver(signedEvent('payment_intent.created', id))).status).toBe(200)
    expect(await statusOf(admin.cookie, order.id)).toBe('CREATED')
  })
})
