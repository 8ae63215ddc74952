import { describe, expect, it } from 'vitest'
import { testConfig } from '../../../tests/server/harness.ts'
import { startTestIdp } from '../../../tests/server/test-idp.ts'
import type { IdentityProviderRow } from '../../db/schema.ts'
import { discover, providerConfiguration } from './provider-client.ts'

// Nothing listens on port 1 of the loopback: a discovery there fails at once, after openid-client let it start.
const ISSUER = 'http://127.0.0.1:1/realms/acme'
const deps = { config: testConfig({ oidcAllowHttpIssuers: true }), secret: Buffer.alloc(32) }
const row = (organizationId: string, updatedAt: Date) =>
  ({
    organizationId,
    issuer: ISSUER,
    clientId: 'trousseau',
    clientSecret: 'not-a-sealed-secret',
    updatedAt,
  }) as IdentityProviderRow

describe('the provider client', () => {
  it('asks once per version of the settings, again when they change, and forgets a failed discovery', async () => {
    const first = providerConfiguration(deps, row('org-a', new Date(1000)))
    expect(providerConfiguration(deps, row('org-a', new Date(1000)))).toBe(first)
    const changed = providerConfiguration(deps, row('org-a', new Date(2000)))
    expect(changed).not.toBe(first)
    // Another organization's provider is its own entry.
    const other = providerConfiguration(deps, row('org-b', new Date(1000)))
    expect(other).not.toBe(first)
    await Promise.allSettled([first, changed, other])
    await expect(changed).rejects.toThrow()
    // The failure is not kept: the same settings ask again.
    const again = providerConfiguration(deps, row('org-a', new Date(2000)))
    expect(again).not.toBe(changed)
    await expect(again).rejects.toThrow()
  })

  it('keeps the new settings’ answer when the old settings’ discovery fails after them', async () => {
    const idp = await startTestIdp({ clientId: 'trousseau', clientSecret: 'secret' })
    try {
      const old = providerConfiguration(deps, row('org-c', new Date(1000)))
      const current = providerConfiguration(deps, { ...row('org-c', new Date(2000)), issuer: idp.issuer })
      await expect(old).rejects.toThrow()
      await expect(current).resolves.toBeDefined()
      expect(providerConfiguration(deps, { ...row('org-c', new Date(2000)), issuer: idp.issuer })).toBe(
        current,
      )
    } finally {
      await idp.close()
    }
  })

  it('talks plain HTTP to an issuer only where the server allows it', async () => {
    const provider = { issuer: ISSUER, clientId: 'trousseau', clientSecret: 'secret' }
    const refused = await discover({ config: testConfig({ oidcAllowHttpIssuers: false }) }, provider).catch(
      (error: { code?: string }) => error.code,
    )
    expect(refused).toBe('OAUTH_HTTP_REQUEST_FORBIDDEN')
    const tried = await discover(deps, provider).catch((error: { code?: string }) => error.code)
    expect(tried).not.toBe('OAUTH_HTTP_REQUEST_FORBIDDEN')
  })
})
