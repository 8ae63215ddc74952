import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { failure } from '../tests/schema-checks.ts'
import {
  IdentityDomainInputSchema,
  IdentityDomainParamsSchema,
  IdentityProviderInputSchema,
  IdentitySettingsSchema,
  OIDC_FAILURES,
  OidcCallbackQuerySchema,
  OidcStartQuerySchema,
} from './identity.ts'

const ID = '00000000-0000-4000-8000-000000000001'

describe('starting an organization sign-in', () => {
  it('takes a normalized address, in French unless told', () => {
    expect(v.parse(OidcStartQuerySchema, { email: ' Ada@Campus.Example ' })).toEqual({
      email: 'ada@campus.example',
      locale: 'fr',
    })
    expect(v.parse(OidcStartQuerySchema, { email: 'ada@campus.example', locale: 'en' }).locale).toBe('en')
    expect(v.is(OidcStartQuerySchema, { email: 'ada' })).toBe(false)
    expect(v.is(OidcStartQuerySchema, { email: 'ada@campus.example', locale: 'de' })).toBe(false)
  })

  it('reads the provider’s answer within bounds', () => {
    const answer = { state: 's'.repeat(200), code: 'c'.repeat(2000), error: 'e'.repeat(200), iss: 'kept' }
    expect(v.parse(OidcCallbackQuerySchema, answer)).toEqual(answer)
    expect(v.parse(OidcCallbackQuerySchema, {})).toEqual({})
    expect(failure(OidcCallbackQuerySchema, { state: 's'.repeat(201) })).toMatch(/^state: /)
    expect(failure(OidcCallbackQuerySchema, { code: 'c'.repeat(2001) })).toMatch(/^code: /)
    expect(failure(OidcCallbackQuerySchema, { error: 'e'.repeat(201) })).toMatch(/^error: /)
  })

  it('names every reason a sign-in may be refused for', () => {
    expect(OIDC_FAILURES).toEqual([
      'expired_attempt',
      'provider_error',
      'issuer',
      'audience',
      'nonce',
      'expired_token',
      'invalid_token',
      'no_email',
      'other_domain',
      'disabled',
      'unreachable',
    ])
  })
})

describe('the identity provider’s settings', () => {
  const provider = (extra: Record<string, unknown> = {}) => ({
    issuer: ' https://login.example.com/tenant/v2.0 ',
    clientId: ' abc ',
    defaultRole: 'MEMBER',
    ...extra,
  })

  it('keep the issuer and client id trimmed, the secret as typed, and refuse anything else', () => {
    expect(v.parse(IdentityProviderInputSchema, provider({ clientSecret: ' s ' }))).toEqual({
      issuer: 'https://login.example.com/tenant/v2.0',
      clientId: 'abc',
      clientSecret: ' s ',
      defaultRole: 'MEMBER',
    })
    expect(v.parse(IdentityProviderInputSchema, provider())).not.toHaveProperty('clientSecret')
    expect(
      v.is(IdentityProviderInputSchema, provider({ issuer: `https://x.example/${'a'.repeat(482)}` })),
    ).toBe(true)
    expect(v.is(IdentityProviderInputSchema, provider({ clientId: 'c'.repeat(500) }))).toBe(true)
    expect(v.is(IdentityProviderInputSchema, provider({ clientSecret: 's'.repeat(2000) }))).toBe(true)
    expect(failure(IdentityProviderInputSchema, provider({ other: 1 }))).toMatch(/^other: /)
  })

  it('say what is wrong with each field', () => {
    expect(failure(IdentityProviderInputSchema, provider({ issuer: 3 }))).toBe(
      'issuer: The issuer is required.',
    )
    expect(failure(IdentityProviderInputSchema, provider({ issuer: 'login.example.com' }))).toBe(
      'issuer: The issuer must be a URL.',
    )
    expect(
      failure(IdentityProviderInputSchema, provider({ issuer: `https://x.example/${'a'.repeat(483)}` })),
    ).toBe('issuer: The issuer is too long.')
    expect(failure(IdentityProviderInputSchema, provider({ clientId: 3 }))).toBe(
      'clientId: The client id is required.',
    )
    expect(failure(IdentityProviderInputSchema, provider({ clientId: '  ' }))).toBe(
      'clientId: The client id is required.',
    )
    expect(failure(IdentityProviderInputSchema, provider({ clientId: 'c'.repeat(501) }))).toMatch(
      /^clientId: /,
    )
    expect(failure(IdentityProviderInputSchema, provider({ clientSecret: '' }))).toBe(
      'clientSecret: The client secret is required.',
    )
    expect(failure(IdentityProviderInputSchema, provider({ clientSecret: 's'.repeat(2001) }))).toBe(
      'clientSecret: The client secret is too long.',
    )
    expect(failure(IdentityProviderInputSchema, provider({ defaultRole: 'OWNER' }))).toMatch(/^defaultRole: /)
  })
})

describe('a domain to cover', () => {
  it('is a lower-case domain name with a dot, nothing more', () => {
    for (const [typed, kept] of [
      [' Campus.Example ', 'campus.example'],
      ['a-b.c-d.example', 'a-b.c-d.example'],
      ['x1.io', 'x1.io'],
      [`${'a'.repeat(63)}.example`, `${'a'.repeat(63)}.example`],
    ]) {
      expect(v.parse(IdentityDomainInputSchema, { domain: typed })).toEqual({ domain: kept })
    }
    for (const bad of [
      'localhost',
      'https://campus.example',
      'campus.example/',
      'ada@campus.example',
      '-campus.example',
      'campus-.example',
      'campus.example.',
      'campus..example',
      'campus.1',
      'campus.e',
      `${'a'.repeat(64)}.example`,
      `${'a.'.repeat(126)}example`,
      'a.b',
    ]) {
      expect(failure(IdentityDomainInputSchema, { domain: bad }), bad).toBe(
        'domain: Give a domain name, like example.com.',
      )
    }
    expect(failure(IdentityDomainInputSchema, { domain: 3 })).toBe('domain: The domain is required.')
    expect(failure(IdentityDomainInputSchema, { domain: 'campus.example', other: 1 })).toMatch(/^other: /)
    expect(v.parse(IdentityDomainParamsSchema, { id: ID, domain: 'Campus.Example' })).toEqual({
      id: ID,
      domain: 'campus.example',
    })
    expect(v.is(IdentityDomainParamsSchema, { id: 'x', domain: 'campus.example' })).toBe(false)
  })
})

describe('the settings answer', () => {
  const settings = {
    provider: { issuer: 'https://i.example', clientId: 'c', defaultRole: 'MEMBER', updatedAt: 'now' },
    redirectUri: 'https://keys.example/api/auth/oidc/callback',
    domainProof: 'dns',
    domains: [
      {
        domain: 'a.example',
        proof: 'DNS',
        txtName: '_trousseau.a.example',
        txtValue: 'v',
        verifiedAt: 'now',
      },
      { domain: 'b.example', proof: 'CONFIRMED', txtName: 't', txtValue: 'v', verifiedAt: 'now' },
      { domain: 'c.example', proof: null, txtName: 't', txtValue: 'v', verifiedAt: null },
    ],
  }

  it('reads the provider or none, each domain’s proof, and how this server proves domains', () => {
    expect(v.parse(IdentitySettingsSchema, settings)).toEqual(settings)
    expect(v.is(IdentitySettingsSchema, { ...settings, provider: null, domainProof: 'confirm' })).toBe(true)
    expect(v.is(IdentitySettingsSchema, { ...settings, domainProof: 'trust' })).toBe(false)
    expect(
      v.is(IdentitySettingsSchema, { ...settings, domains: [{ ...settings.domains[0], proof: 'EMAIL' }] }),
    ).toBe(false)
    expect(
      v.is(IdentitySettingsSchema, { ...settings, provider: { ...settings.provider, defaultRole: 'X' } }),
    ).toBe(false)
  })
})
