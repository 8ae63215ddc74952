import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { MINUTE } from '../../../tests/server/clock.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { emailTokens } from '../../db/schema.ts'
import { SEND_LIMIT_PER_ADDRESS, SEND_LIMIT_PER_IP } from './sign-in-tokens.ts'

const t = setupTestApp()

describe('POST /api/email-tokens', () => {
  it('answers 202 with the same body for a known and an unknown address', async () => {
    const known = uniqueEmail('known')
    await t.signIn(known)
    const forKnown = await t.post('/api/email-tokens', { json: { email: known } })
    const forUnknown = await t.post('/api/email-tokens', { json: { email: uniqueEmail('unknown') } })
    expect(forKnown.status).toBe(202)
    expect(forUnknown.status).toBe(202)
    expect(await forKnown.text()).toBe(await forUnknown.text())
    expect(t.mail.signInFor(known).code).toMatch(/^\d{6}$/)
  })

  it('normalises the address and sends the mail in the requested locale', async () => {
    const email = uniqueEmail('Mixed')
    const response = await t.post('/api/email-tokens', {
      json: { email: `  ${email.toUpperCase()} `, locale: 'en' },
    })
    expect(response.status).toBe(202)
    const mail = t.mail.signInFor(email.toLowerCase())
    expect(mail.link).toMatch(/^http:\/\/localhost:3000\/en\/\?token=/)
    expect(mail.token).toHaveLength(43)
  })

  it('stores only keyed hashes of the link token and the code', async () => {
    const email = uniqueEmail()
    await t.post('/api/email-tokens', { json: { email } })
    const { token, code } = t.mail.signInFor(email)
    const [row] = await t.db.select().from(emailTokens).where(eq(emailTokens.email, email))
    const stored = JSON.stringify(row)
    expect(stored).not.toContain(token)
    expect(row?.codeHash).not.toContain(code)
    expect(row?.linkTokenHash).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(row?.expiresAt.getTime()).toBe(t.clock.now().getTime() + 10 * MINUTE)
  })

  it('refuses a malformed address with 400 validation_failed', async () => {
    const response = await t.post('/api/email-tokens', { json: { email: 'not-an-address' } })
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error).toMatchObject({
      code: 'validation_failed',
      message: 'E-mail must be a valid address.',
    })
    expect(body.error.issues).toEqual([{ path: 'email', message: 'E-mail must be a valid address.' }])
  })

  it('refuses an unknown locale', async () => {
    const response = await t.post('/api/email-tokens', { json: { email: uniqueEmail(), locale: 'de' } })
    expect(response.status).toBe(400)
  })

  it('answers 400 bad_request for malformed JSON', async () => {
    const response = await t.post('/api/email-tokens', {
      body: '{"email": ',
      headers: { 'content-type': 'application/json' },
    })
    expect(response.status).toBe(400)
    expect((await response.json()).error.code).toBe('bad_request')
  })

  it('limits sends per address silently: still 202, but no more mail', async () => {
    const email = uniqueEmail('limited')
    for (let i = 0; i < SEND_LIMIT_PER_ADDRESS.limit; i++) {
      expect((await t.post('/api/email-tokens', { json: { email } })).status).toBe(202)
    }
    const over = await t.post('/api/email-tokens', { json: { email } })
    expect(over.status).toBe(202)
    expect(await over.json()).toEqual({ status: 'sent' })
    expect(t.mail.to(email)).toHaveLength(SEND_LIMIT_PER_ADDRESS.limit)

    t.clock.advance(SEND_LIMIT_PER_ADDRESS.windowMs)
    await t.post('/api/email-tokens', { json: { email } })
    expect(t.mail.to(email)).toHaveLength(SEND_LIMIT_PER_ADDRESS.limit + 1)
  })

  it('limits sends per IP with 429 and Retry-After', async () => {
    const ip = '192.0.2.10'
    for (let i = 0; i < SEND_LIMIT_PER_IP.limit; i++) {
      expect((await t.post('/api/email-tokens', { ip, json: { email: uniqueEmail() } })).status).toBe(202)
    }
    const over = await t.post('/api/email-tokens', { ip, json: { email: uniqueEmail() } })
    expect(over.status).toBe(429)
    expect((await over.json()).error.code).toBe('rate_limited')
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(
      (await t.post('/api/email-tokens', { ip: '192.0.2.11', json: { email: uniqueEmail() } })).status,
    ).toBe(202)
  })

  it('counts every IPv6 address of one /64 against the same per-IP limit', async () => {
    for (let i = 0; i < SEND_LIMIT_PER_IP.limit; i++) {
      const ip = `2001:db8:77:1::${(i + 1).toString(16)}`
      expect((await t.post('/api/email-tokens', { ip, json: { email: uniqueEmail() } })).status).toBe(202)
    }
    const sameSlash64 = await t.post('/api/email-tokens', {
      ip: '2001:db8:77:1:abcd::99',
      json: { email: uniqueEmail() },
    })
    expect(sameSlash64.status).toBe(429)
    const otherSlash64 = await t.post('/api/email-tokens', {
      ip: '2001:db8:77:2::1',
      json: { email: uniqueEmail() },
    })
    expect(otherSlash64.status).toBe(202)
  })

  it('is never consumed by a GET', async () => {
    const email = uniqueEmail()
    await t.post('/api/email-tokens', { json: { email } })
    const { token } = t.mail.signInFor(email)
    expect((await t.get(`/api/sessions?token=${token}`)).status).toBe(405)
    expect((await t.get(`/?token=${token}`, { headers: { accept: 'text/html' } })).status).toBe(404)
    expect((await t.post('/api/sessions', { json: { token } })).status).toBe(201)
  })

  it('never writes the address, token or code into the logs', async () => {
    const email = uniqueEmail('secretive')
    await t.post('/api/email-tokens', { json: { email } })
    const { token, code } = t.mail.signInFor(email)
    await t.post('/api/sessions', { json: { email, code } })
    const logs = t.logLines.join('')
    expect(logs).toContain('"path":"/api/sessions"')
    expect(logs).not.toContain(email)
    expect(logs).not.toContain(token)
    expect(logs).not.toContain(code)
  })
})
