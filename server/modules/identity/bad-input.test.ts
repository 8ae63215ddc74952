import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'

const t = setupTestApp()

const errorOf = async (response: Response) => ({
  status: response.status,
  code: ((await response.json()) as { error: { code: string } }).error.code,
})

describe('the organization sign-in’s endpoints, given bad input', () => {
  it('answer 400 validation_failed and go nowhere', async () => {
    for (const path of [
      '/api/auth/oidc/coverage?email=not-an-address',
      '/api/auth/oidc/start?email=not-an-address',
      '/api/auth/oidc/start?email=ada@campus.example&locale=de',
      `/api/auth/oidc/callback?state=${'s'.repeat(201)}`,
    ]) {
      const response = await t.get(path)
      expect(response.headers.get('location'), path).toBeNull()
      expect(await errorOf(response), path).toEqual({ status: 400, code: 'validation_failed' })
    }
    const { organization, admin } = await organizationWithAdmin(t, 'Bad input')
    const base = `/api/organizations/${organization.id}`
    const cases: Array<[string, string, unknown]> = [
      ['PUT', `${base}/identity-provider`, { issuer: 'not a url', clientId: 'x', defaultRole: 'MEMBER' }],
      [
        'PUT',
        `${base}/identity-provider`,
        { issuer: 'https://i.example', clientId: 'x', defaultRole: 'OWNER' },
      ],
      ['POST', `${base}/identity-domains`, { domain: 'https://campus.example/' }],
      ['POST', `${base}/api-tokens`, { name: 'IdP', role: 'MEMBER', kind: 'ldap' }],
    ]
    for (const [method, path, json] of cases) {
      const response = await t.request(path, { method, cookie: admin.cookie, json })
      expect(await errorOf(response), `${method} ${path}`).toEqual({ status: 400, code: 'validation_failed' })
    }
    const badDomain = await t.post(`${base}/identity-domains/not_a_domain/verification`, {
      cookie: admin.cookie,
    })
    expect(await errorOf(badDomain)).toEqual({ status: 400, code: 'validation_failed' })
  })
})
