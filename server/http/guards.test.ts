import { describe, expect, it } from 'vitest'
import { createTestApp, setupTestApp, uniqueEmail } from '../../tests/server/harness.ts'
import { MAX_BODY_BYTES } from './request-guards.ts'

const t = setupTestApp({ config: { corsOrigins: ['https://spa.example.test'] } })
const email = () => ({ email: uniqueEmail() })

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status)
  const body = await response.json()
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe('string')
  expect(JSON.stringify(body)).not.toMatch(/\bat .+\.(ts|js):\d+/)
}

describe('CSRF defence', () => {
  it('refuses a state-changing request without Origin', async () => {
    await expectError(
      await t.post('/api/email-tokens', { origin: null, json: email() }),
      403,
      'origin_rejected',
    )
  })

  it('refuses a foreign Origin', async () => {
    const response = await t.post('/api/email-tokens', { origin: 'https://evil.example', json: email() })
    await expectError(response, 403, 'origin_rejected')
  })

  it('refuses Sec-Fetch-Site: cross-site even with our own Origin', async () => {
    const response = await t.post('/api/email-tokens', {
      headers: { 'sec-fetch-site': 'cross-site' },
      json: email(),
    })
    await expectError(response, 403, 'origin_rejected')
  })

  it('accepts an Origin from CORS_ORIGINS, cross-site included', async () => {
    const response = await t.post('/api/email-tokens', {
      origin: 'https://spa.example.test',
      headers: { 'sec-fetch-site': 'cross-site' },
      json: email(),
    })
    expect(response.status).toBe(202)
    expect(response.headers.get('access-control-allow-origin')).toBe('https://spa.example.test')
    expect(response.headers.get('access-control-allow-credentials')).toBe('true')
  })

  it('protects DELETE too', async () => {
    await expectError(
      await t.delete('/api/session', { origin: 'https://evil.example' }),
      403,
      'origin_rejected',
    )
  })

  it('does not need an Origin on GET', async () => {
    expect((await t.get('/api/health', { origin: null })).status).toBe(200)
  })

  it('answers a CORS preflight for the allow-list only, never with *', async () => {
    const preflight = (origin: string) =>
      t.request('/api/sessions', {
        method: 'OPTIONS',
        origin,
        headers: {
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      })
    const allowed = await preflight('https://spa.example.test')
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://spa.example.test')
    const refused = await preflight('https://evil.example')
    expect(refused.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('request bodies', () => {
  it('refuses a form content type with 415', async () => {
    const response = await t.post('/api/email-tokens', {
      body: 'email=a%40example.test',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    await expectError(response, 415, 'unsupported_media_type')
  })

  it('refuses multipart and text/plain with 415', async () => {
    for (const type of ['multipart/form-data; boundary=x', 'text/plain']) {
      const response = await t.post('/api/sessions', { body: '{}', headers: { 'content-type': type } })
      await expectError(response, 415, 'unsupported_media_type')
    }
  })

  it('refuses a body without content type with 415', async () => {
    const response = await t.post('/api/email-tokens', { body: JSON.stringify(email()) })
    await expectError(response, 415, 'unsupported_media_type')
  })

  it('accepts application/json with a charset', async () => {
    const response = await t.post('/api/email-tokens', {
      body: JSON.stringify(email()),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    })
    expect(response.status).toBe(202)
  })

  it('refuses a body over the limit with 413', async () => {
    const response = await t.post('/api/email-tokens', { json: { email: 'a'.repeat(MAX_BODY_BYTES) } })
    await expectError(response, 413, 'payload_too_large')
  })

  it('answers a missing body with 400, not 500', async () => {
    await expectError(await t.post('/api/email-tokens'), 400, 'validation_failed')
  })
})

describe('errors and headers', () => {
  it('answers unknown /api paths with 404 JSON', async () => {
    await expectError(await t.get('/api/does-not-exist'), 404, 'not_found')
    // A known path with a method it does not answer is a 405 naming the ones it does.
    const wrongMethod = await t.post('/api/profile', { json: {} })
    expect(wrongMethod.headers.get('allow')).toBe('GET, HEAD, PATCH')
    await expectError(wrongMethod, 405, 'method_not_allowed')
  })

  it('never answers a stack trace, even for an unexpected error', async () => {
    const broken = await createTestApp()
    await broken.database.close()
    try {
      const response = await broken.post('/api/email-tokens', { json: email() })
      await expectError(response, 500, 'internal_error')
      expect(broken.logLines.join('')).toContain('unhandled error')
    } finally {
      await broken.close().catch(() => {})
    }
  })

  it('sets the security headers on every response', async () => {
    for (const response of [
      await t.get('/api/health'),
      await t.get('/api/nope'),
      await t.get('/elsewhere'),
    ]) {
      const csp = response.headers.get('content-security-policy') ?? ''
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("script-src 'self'")
      expect(csp).toContain("connect-src 'self' https://spa.example.test")
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("object-src 'none'")
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
      expect(response.headers.get('x-frame-options')).toBe('DENY')
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(response.headers.get('permissions-policy')).toBe('camera=(self), microphone=(), geolocation=()')
      expect(response.headers.get('cross-origin-opener-policy')).toBe('same-origin')
      expect(response.headers.get('strict-transport-security')).toBeNull()
      expect(response.headers.get('x-request-id')).toBeTruthy()
    }
  })

  it('marks API answers as not cacheable', async () => {
    expect((await t.get('/api/health')).headers.get('cache-control')).toBe('no-store')
  })
})
