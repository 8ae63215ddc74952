import { describe, expect, it } from 'vitest'
import { MINUTE, SECOND } from '../../../tests/server/clock.ts'
import { createTestApp, sessionCookie, setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { FAILED_SIGN_IN_LIMIT_PER_IP, MAX_CODE_ATTEMPTS } from './sign-in-tokens.ts'

const t = setupTestApp()
const FAILED = { error: { code: 'sign_in_failed', message: 'Sign-in failed. Please try again.' } }

async function sendMail(email: string, locale?: 'fr' | 'en') {
  const response = await t.post('/api/email-tokens', { json: locale ? { email, locale } : { email } })
  expect(response.status).toBe(202)
  return t.mail.signInFor(email)
}

const byCode = (email: string, code: string) => t.post('/api/sessions', { json: { email, code } })
const byLink = (token: string) => t.post('/api/sessions', { json: { token } })
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

async function expectFailed(response: Response, status = 401) {
  expect(response.status).toBe(status)
  expect(await response.json()).toEqual(FAILED)
  expect(response.headers.getSetCookie()).toEqual([])
}

describe('POST /api/sessions', () => {
  it('signs in by link: 201, profile, HttpOnly SameSite=Lax cookie, account created in the mail locale', async () => {
    const email = uniqueEmail()
    const { token } = await sendMail(email, 'en')
    const response = await byLink(token)
    expect(response.status).toBe(201)
    const profile = await response.json()
    expect(profile).toMatchObject({ email, locale: 'en', permissions: [], selectedOrganizationId: null })
    const [cookie] = response.headers.getSetCookie()
    expect(cookie).toMatch(/^session=[A-Za-z0-9_-]{43}; /)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
    expect(cookie).toContain(`Max-Age=${30 * 24 * 3600}`)
    expect(cookie).not.toContain('Secure')
    const me = await t.get('/api/profile', { cookie: sessionCookie(response, t.config) })
    expect(me.status).toBe(200)
    expect((await me.json()).id).toBe(profile.id)
  })

  it('signs in by e-mail and code, whatever the case of the address', async () => {
    const email = uniqueEmail()
    const { code } = await sendMail(email)
    const response = await byCode(email.toUpperCase(), code)
    expect(response.status).toBe(201)
    expect((await response.json()).locale).toBe('fr')
  })

  it.each(["o'brien-{n}@example.com", 'lea+keys-{n}@xn--mller-kva.de'])(
    'signs in people whose address real mail systems deliver to (%s)',
    async (pattern) => {
      const email = pattern.replace('{n}', String(Date.now()))
      const { code } = await sendMail(email)
      const response = await byCode(email, code)
      expect(response.status).toBe(201)
      expect((await response.json()).email).toBe(email)
    },
  )

  it('keeps the account: a second sign-in gets the same user', async () => {
    const email = uniqueEmail()
    const first = await t.signIn(email)
    const second = await t.signIn(email)
    expect(second.profile.id).toBe(first.profile.id)
    expect(second.cookie).not.toBe(first.cookie)
  })

  it('fails with a wrong code, an unknown address and a code of another address', async () => {
    const email = uniqueEmail()
    const { code } = await sendMail(email)
    await expectFailed(await byCode(email, wrong(code)))
    await expectFailed(await byCode(uniqueEmail(), code))
    const other = uniqueEmail()
    await sendMail(other)
    await expectFailed(await byCode(other, code))
  })

  it('answers malformed input with the same sign_in_failed message (400)', async () => {
    await expectFailed(await byLink('short'), 400)
    await expectFailed(await byCode(uniqueEmail(), '12ab56'), 400)
    await expectFailed(await t.post('/api/sessions', { json: { email: 'x@example.test' } }), 400)
    await expectFailed(await t.post('/api/sessions', { json: {} }), 400)
    const malformed = await t.post('/api/sessions', {
      body: '{"token"',
      headers: { 'content-type': 'application/json' },
    })
    await expectFailed(malformed, 400)
  })

  it('fails an expired code and link (10 minutes + 1 s)', async () => {
    const email = uniqueEmail()
    const { code, token } = await sendMail(email)
    t.clock.advance(10 * MINUTE + SECOND)
    await expectFailed(await byCode(email, code))
    await expectFailed(await byLink(token))
  })

  it('accepts a code just before it expires', async () => {
    const email = uniqueEmail()
    const { code } = await sendMail(email)
    t.clock.advance(10 * MINUTE - SECOND)
    expect((await byCode(email, code)).status).toBe(201)
  })

  it('refuses a reused code and a reused link', async () => {
    const first = uniqueEmail()
    const { code } = await sendMail(first)
    expect((await byCode(first, code)).status).toBe(201)
    await expectFailed(await byCode(first, code))

    const second = uniqueEmail()
    const { token } = await sendMail(second)
    expect((await byLink(token)).status).toBe(201)
    await expectFailed(await byLink(token))
  })

  it('voids the link once the code of the same mail was used, and the other way round', async () => {
    const email = uniqueEmail()
    const mail = await sendMail(email)
    expect((await byCode(email, mail.code)).status).toBe(201)
    await expectFailed(await byLink(mail.token))

    const again = await sendMail(email)
    expect((await byLink(again.token)).status).toBe(201)
    await expectFailed(await byCode(email, again.code))
  })

  it(`voids the code after ${MAX_CODE_ATTEMPTS} wrong tries: the next try fails even with the right code`, async () => {
    const email = uniqueEmail()
    const { code, token } = await sendMail(email)
    for (let i = 0; i < MAX_CODE_ATTEMPTS; i++) await expectFailed(await byCode(email, wrong(code)))
    await expectFailed(await byCode(email, code))
    await expectFailed(await byLink(token))
  })

  it('accepts the right code on the last allowed try', async () => {
    const email = uniqueEmail()
    const { code } = await sendMail(email)
    for (let i = 0; i < MAX_CODE_ATTEMPTS - 1; i++) await expectFailed(await byCode(email, wrong(code)))
    expect((await byCode(email, code)).status).toBe(201)
  })

  it('voids the previous code and link when a new mail is sent', async () => {
    const email = uniqueEmail()
    const old = await sendMail(email)
    t.mail.clear()
    const fresh = await sendMail(email)
    await expectFailed(await byCode(email, old.code))
    await expectFailed(await byLink(old.token))
    expect((await byCode(email, fresh.code)).status).toBe(201)
  })

  it('lets only one of two concurrent requests with the same code win', async () => {
    const email = uniqueEmail()
    const { code } = await sendMail(email)
    const responses = await Promise.all([byCode(email, code), byCode(email, code)])
    expect(responses.map((response) => response.status).sort()).toEqual([201, 401])
  })

  it('lets only one of two concurrent requests with the same link win', async () => {
    const { token } = await sendMail(uniqueEmail())
    const responses = await Promise.all([byLink(token), byLink(token), byLink(token)])
    expect(responses.map((response) => response.status).sort()).toEqual([201, 401, 401])
  })

  it('limits failed sign-ins per IP with 429, even for a right code', async () => {
    const ip = '198.51.100.7'
    for (let i = 0; i < FAILED_SIGN_IN_LIMIT_PER_IP.limit; i++) {
      await expectFailed(
        await t.post('/api/sessions', { ip, json: { email: uniqueEmail(), code: '000000' } }),
      )
    }
    const email = uniqueEmail()
    const { code } = await sendMail(email)
    const blocked = await t.post('/api/sessions', { ip, json: { email, code } })
    expect(blocked.status).toBe(429)
    expect((await blocked.json()).error.code).toBe('rate_limited')
    expect(blocked.headers.get('retry-after')).toMatch(/^\d+$/)
    expect((await t.post('/api/sessions', { ip: '198.51.100.8', json: { email, code } })).status).toBe(201)
  })
})

describe('behind https', () => {
  it('names the cookie __Host-session and marks it Secure', async () => {
    const secure = await createTestApp({ config: { publicUrl: 'https://keys.example.test' } })
    try {
      const { cookie } = await secure.signIn(uniqueEmail())
      expect(cookie).toMatch(/^__Host-session=/)
      const response = await secure.post('/api/email-tokens', { json: { email: uniqueEmail() } })
      expect(response.headers.get('strict-transport-security')).toContain('max-age=')
      const email = uniqueEmail()
      await secure.post('/api/email-tokens', { json: { email } })
      const signIn = await secure.post('/api/sessions', {
        json: { token: secure.mail.signInFor(email).token },
      })
      const [header] = signIn.headers.getSetCookie()
      expect(header).toMatch(/^__Host-session=[A-Za-z0-9_-]{43}; /)
      expect(header).toContain('Secure')
      expect(header).toContain('HttpOnly')
      expect(header).not.toContain('Domain')
    } finally {
      await secure.close()
    }
  })
})
