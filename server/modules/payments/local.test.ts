import { readFile } from 'node:fs/promises'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { Order } from '../../../contract/commerce.ts'
import { MINUTE } from '../../../tests/server/clock.ts'
import { placeOrder, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { users } from '../../db/schema.ts'
import { LOCAL_SESSION_TTL_MS } from './local.ts'

const t = setupTestApp()
const FORM = { 'content-type': 'application/x-www-form-urlencoded' }

async function openSession(cookie: string, orderId: string) {
  const response = await t.post(`/api/orders/${orderId}/sessions`, { cookie, json: {} })
  expect(response.status).toBe(201)
  const session = (await response.json()) as { url: string; provider: string }
  expect(session.provider).toBe('local')
  expect(session.url).toMatch(/^http:\/\/localhost:3000\/api\/payments\/local\/[A-Za-z0-9_-]{22}$/)
  return new URL(session.url).pathname
}

const order = async (cookie: string, id: string) =>
  (await (await t.get(`/api/orders/${id}`, { cookie })).json()) as Order

describe('the sandbox checkout page', () => {
  it('shows the order and three script-free forms, in the payer’s language or ?lang=', async () => {
    const { admin } = await organizationWithAdmin(t)
    const placed = await placeOrder(t, admin.cookie, [tagItem(100, { name: '<Cave & Co>' })])
    const path = await openSession(admin.cookie, placed.id)
    const page = await t.get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).not.toContain('<script')
    expect(html).toContain('<html lang="fr">')
    expect(html).toContain('Paiement de test')
    expect(html).toContain(placed.reference)
    expect(html).toContain('&lt;Cave &amp; Co&gt;')
    expect(html).not.toContain('<Cave & Co>')
    expect(html).toContain('228,00')
    const id = path.split('/').at(-1)
    for (const outcome of ['pay', 'fail', 'cancel']) {
      expect(html).toContain(`<form method="post" action="${id}/${outcome}?lang=fr">`)
    }
    const english = await (await t.get(`${path}?lang=en`)).text()
    expect(english).toContain('<html lang="en">')
    expect(english).toContain('Sandbox payment')
    expect(english).toContain('Pay €228.00')
  })

  it('links the app’s icons as index.html does, open and closed', async () => {
    const iconLinks = (html: string) =>
      [...html.matchAll(/<link rel="(icon|apple-touch-icon)"[^>]*>/g)].map(([link]) =>
        link.replace(/\s*\/>$/, '>'),
      )
    const app = iconLinks(await readFile(new URL('../../../index.html', import.meta.url), 'utf8'))
    expect(app).toHaveLength(2)
    const { admin } = await organizationWithAdmin(t)
    const placed = await placeOrder(t, admin.cookie)
    const path = await openSession(admin.cookie, placed.id)
    expect(iconLinks(await (await t.get(path)).text())).toEqual(app)
    await t.post(`${path}/cancel`, { body: '', headers: FORM })
    const closed = await (await t.get(path)).text()
    expect(closed).not.toContain('<form')
    expect(iconLinks(closed)).toEqual(app)
  })

  it('pays: 303 to the success page in the payer’s language, the order PAID through the provider path', async () => {
    const { admin } = await organizationWithAdmin(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, admin.id))
    const placed = await placeOrder(t, admin.cookie)
    const path = await openSession(admin.cookie, placed.id)
    const response = await t.post(`${path}/pay`, { body: '', headers: FORM })
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe(
      `http://localhost:3000/en/app/order-result/success?order=${placed.id}`,
    )
    expect((await order(admin.cookie, placed.id)).status).toBe('PAID')
    const closed = await (await t.get(path)).text()
    expect(closed).toContain('This payment session is closed')
    expect(closed).not.toContain('<form')
    const again = await t.post(`${path}/fail`, { body: '', headers: FORM })
    expect(again.headers.get('location')).toContain('/order-result/success?')
    expect((await order(admin.cookie, placed.id)).status).toBe('PAID')
  })

  it('fails (UNPAID) or cancels (EXPIRED) to the cancel page; a new session can then be paid', async () => {
    const { admin } = await organizationWithAdmin(t)
    for (const [outcome, status] of [
      ['fail', 'UNPAID'],
      ['cancel', 'EXPIRED'],
    ] as const) {
      const placed = await placeOrder(t, admin.cookie)
      const path = await openSession(admin.cookie, placed.id)
      const response = await t.post(`${path}/${outcome}?lang=fr`, { body: '', headers: FORM })
      expect(response.status).toBe(303)
      expect(response.headers.get('location')).toBe(
        `http://localhost:3000/app/order-result/cancel?order=${placed.id}`,
      )
      const seen = await order(admin.cookie, placed.id)
      expect(seen.status).toBe(status)
      expect(seen.actions).toEqual(['sessions', 'checks'])
      const second = await openSession(admin.cookie, placed.id)
      expect(second).not.toBe(path)
      await t.post(`${second}/pay`, { body: '', headers: FORM })
      expect((await order(admin.cookie, placed.id)).status).toBe('PAID')
    }
  })

  it('gives the open session back on a second click, and expires it after an hour (checks → EXPIRED)', async () => {
    const { admin } = await organizationWithAdmin(t)
    const placed = await placeOrder(t, admin.cookie)
    const path = await openSession(admin.cookie, placed.id)
    expect(await openSession(admin.cookie, placed.id)).toBe(path)
    const open = await t.post(`/api/orders/${placed.id}/checks`, { cookie: admin.cookie, json: {} })
    expect((await open.json()).status).toBe('CREATED')
    t.clock.advance(LOCAL_SESSION_TTL_MS + MINUTE)
    const checked = await t.post(`/api/orders/${placed.id}/checks`, { cookie: admin.cookie, json: {} })
    expect((await checked.json()).status).toBe('EXPIRED')
    const late = await t.post(`${path}/pay`, { body: '', headers: FORM })
    expect(late.headers.get('location')).toContain('/order-result/cancel?')
    expect((await order(admin.cookie, placed.id)).status).toBe('EXPIRED')
  })

  it('keeps the Origin check on its form posts; an unknown session is a 404', async () => {
    const { admin } = await organizationWithAdmin(t)
    const placed = await placeOrder(t, admin.cookie)
    const path = await openSession(admin.cookie, placed.id)
    const foreign = await t.post(`${path}/pay`, { body: '', headers: FORM, origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    expect((await t.post(`${path}/pay`, { body: '', headers: FORM, origin: null })).status).toBe(403)
    expect((await order(admin.cookie, placed.id)).status).toBe('CREATED')
    expect((await t.get('/api/payments/local/AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404)
    expect(
      (await t.post('/api/payments/local/AAAAAAAAAAAAAAAAAAAAAA/steal', { body: '', headers: FORM })).status,
    ).toBe(415)
  })

  it('refuses a session for a paid order (409 with the allowed next statuses)', async () => {
    const { admin } = await organizationWithAdmin(t)
    const placed = await placeOrder(t, admin.cookie)
    const path = await openSession(admin.cookie, placed.id)
    await t.post(`${path}/pay`, { body: '', headers: FORM })
    const response = await t.post(`/api/orders/${placed.id}/sessions`, { cookie: admin.cookie, json: {} })
    expect(response.status).toBe(409)
    expect((await response.json()).error).toMatchObject({
      code: 'invalid_transition',
      allowed: ['CONFIRMED'],
    })
  })

  it('answers the Stripe webhook with 404 while Stripe is not configured', async () => {
    const response = await t.post('/api/payments/stripe/webhook', {
      body: '{}',
      origin: null,
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
    })
    expect(response.status).toBe(404)
  })

  it('answers checks without a session with 409', async () => {
    const { admin } = await organizationWithAdmin(t)
    const placed = await placeOrder(t, admin.cookie)
    expect((await t.post(`/api/orders/${placed.id}/checks`, { cookie: admin.cookie, json: {} })).status).toBe(
      409,
    )
  })
})
