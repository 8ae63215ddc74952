import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { startTestIdp } from '../../../tests/server/test-idp.ts'

const OPERATOR = 'ops@covered.example'
const t = setupTestApp({
  config: { oidcAllowHttpIssuers: true, oidcDomainProof: 'confirm', operatorEmails: [OPERATOR] },
})
const CLIENT = { clientId: 'code-client', clientSecret: 'code-secret' }
let idp: Awaited<ReturnType<typeof startTestIdp>>
beforeAll(async () => {
  idp = await startTestIdp(CLIENT)
})
afterAll(() => idp.close())

const askCode = (email: string) => t.post('/api/email-tokens', { json: { email, locale: 'en' } })

describe('the e-mail code for an address its organization signs in itself', () => {
  it('is refused (409 sso_required, naming the organization) once the domain is proven, but to platform operators', async () => {
    const { organization, admin } = await organizationWithAdmin(t, 'Covered Co')
    const base = `/api/organizations/${organization.id}`
    await t.put(`${base}/identity-provider`, {
      cookie: admin.cookie,
      json: { issuer: idp.issuer, ...CLIENT, defaultRole: 'MEMBER' },
    })
    await t.post(`${base}/identity-domains`, { cookie: admin.cookie, json: { domain: 'covered.example' } })
    // Pending: not proven yet, so the code still works.
    expect((await askCode('ada@covered.example')).status).toBe(202)
    await t.post(`${base}/identity-domains/covered.example/verification`, { cookie: admin.cookie })
    const refused = await askCode('Ada@Covered.example')
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({
      error: {
        code: 'sso_required',
        message: 'Covered Co signs you in with its own account: continue with it.',
      },
    })
    expect((await askCode(OPERATOR)).status).toBe(202)
    expect((await askCode('ada@elsewhere.example')).status).toBe(202)
    // Without its provider, the domain covers no one: the code works again.
    await t.delete(`${base}/identity-provider`, { cookie: admin.cookie })
    expect((await askCode('ada@covered.example')).status).toBe(202)
  })
})
