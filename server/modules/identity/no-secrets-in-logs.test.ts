import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { API_TOKEN_PATTERN } from '../../../contract/api-tokens.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { startTestIdp } from '../../../tests/server/test-idp.ts'

const t = setupTestApp({
  config: { oidcAllowHttpIssuers: true, oidcDomainProof: 'confirm', logLevel: 'debug' },
})
const CLIENT = { clientId: 'logs-client', clientSecret: 'never-in-a-log-line-7f3a' }
let idp: Awaited<ReturnType<typeof startTestIdp>>
beforeAll(async () => {
  idp = await startTestIdp(CLIENT)
})
afterAll(() => idp.close())

describe('identity secrets and the logs', () => {
  it('never writes the client secret, a SCIM token, a state or a code to a log line', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Logs')
    const base = `/api/organizations/${organization.id}`
    await t.put(`${base}/identity-provider`, {
      cookie: admin.cookie,
      json: { issuer: idp.issuer, ...CLIENT, defaultRole: 'MEMBER' },
    })
    await t.post(`${base}/identity-domains`, { cookie: admin.cookie, json: { domain: 'logs.example' } })
    await t.post(`${base}/identity-domains/logs.example/verification`, { cookie: admin.cookie })
    const made = await t.post(`${base}/api-tokens`, {
      cookie: admin.cookie,
      json: { name: 'IdP', role: 'MEMBER', kind: 'scim' },
    })
    const { token } = (await made.json()) as { token: string }
    await t.request('/scim/v2/Users', { origin: null, headers: { authorization: `Bearer ${token}` } })
    idp.next({ sub: 'logs-1', email: 'ada@logs.example', email_verified: true }, { nonce: 'wrong' })
    const start = await t.get('/api/auth/oidc/start?email=ada@logs.example')
    const authorize = new URL(start.headers.get('location')!)
    const back = new URL((await fetch(authorize, { redirect: 'manual' })).headers.get('location')!)
    const refused = await t.get(`${back.pathname}${back.search}`)
    expect(refused.headers.get('location')).toBe('http://localhost:3000/sign-in?sso=nonce')
    const logs = t.logLines.join('\n')
    expect(logs).toContain('Organization sign-in refused')
    for (const secret of [
      CLIENT.clientSecret,
      token,
      API_TOKEN_PATTERN.exec(token)![2]!,
      authorize.searchParams.get('state')!,
      authorize.searchParams.get('code_challenge')!,
      back.searchParams.get('code')!,
    ]) {
      expect(secret.length).toBeGreaterThanOrEqual(16)
      expect(logs).not.toContain(secret)
    }
  })
})
