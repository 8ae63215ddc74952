import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { sessionCookie, setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { startTestIdp } from '../../../tests/server/test-idp.ts'
import { identityProviders, memberships, users } from '../../db/schema.ts'
import { openSecret } from '../../shared/secret-box.ts'

const t = setupTestApp({ config: { oidcAllowHttpIssuers: true, oidcDomainProof: 'confirm' } })
const CLIENT = { clientId: 'trousseau', clientSecret: 'a-very-secret-value' }
let idp: Awaited<ReturnType<typeof startTestIdp>>
beforeAll(async () => {
  idp = await startTestIdp(CLIENT)
})
afterAll(() => idp.close())

let domain: string
let world: Awaited<ReturnType<typeof organizationWithAdmin>>
let serial = 0
beforeEach(async () => {
  serial += 1
  domain = `campus${serial}.example`
  world = await organizationWithAdmin(t, 'Campus')
  const saved = await t.put(`/api/organizations/${world.organization.id}/identity-provider`, {
    cookie: world.admin.cookie,
    json: { issuer: idp.issuer, ...CLIENT, defaultRole: 'MEMBER' },
  })
  expect(saved.status).toBe(200)
  await t.post(`/api/organizations/${world.organization.id}/identity-domains`, {
    cookie: world.admin.cookie,
    json: { domain },
  })
  const verified = await t.post(
    `/api/organizations/${world.organization.id}/identity-domains/${domain}/verification`,
    { cookie: world.admin.cookie },
  )
  expect(verified.status).toBe(200)
})

/** The browser's trip: our start, the provider's authorization (it signs in at once), our callback. */
async function signInThroughProvider(email: string, locale: 'fr' | 'en' = 'fr') {
  const start = await t.get(`/api/auth/oidc/start?email=${encodeURIComponent(email)}&locale=${locale}`)
  expect(start.status).toBe(302)
  const authorize = new URL(start.headers.get('location')!)
  if (authorize.origin !== idp.issuer) return { location: authorize.toString(), cookie: undefined }
  const back = await fetch(authorize, { redirect: 'manual' })
  const callback = new URL(back.headers.get('location')!)
  const done = await t.get(`${callback.pathname}${callback.search}`)
  expect(done.status).toBe(302)
  return { location: done.headers.get('location')!, cookie: sessionCookie(done, t.config), authorize }
}

describe('signing in with the organization’s identity provider', () => {
  it('sends the browser there with PKCE, state, nonce and the address, and back to the app with an account and the default role', async () => {
    const email = `ada.${serial}@${domain}`
    idp.next({
      sub: `sub-${serial}`,
      email,
      email_verified: true,
      given_name: 'Ada',
      family_name: 'Lovelace',
    })
    const coverage = await t.get(`/api/auth/oidc/coverage?email=${encodeURIComponent(email)}`)
    expect(await coverage.json()).toEqual({ organizationName: 'Campus' })
    const { location, cookie, authorize } = await signInThroughProvider(email, 'en')
    expect(Object.fromEntries(authorize!.searchParams)).toMatchObject({
      client_id: 'trousseau',
      response_type: 'code',
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      redirect_uri: 'http://localhost:3000/api/auth/oidc/callback',
      login_hint: email,
      state: expect.any(String),
      nonce: expect.any(String),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    })
    expect(location).toBe('http://localhost:3000/en/app')
    const profile = (await (await t.get('/api/profile', { cookie })).json()) as {
      id: string
      email: string
      firstName: string
      selectedOrganizationId: string
      selectedRole: string
    }
    expect(profile).toMatchObject({ email, firstName: 'Ada', selectedOrganizationId: world.organization.id })
    const [membership] = await t.db.select().from(memberships).where(eq(memberships.userId, profile.id))
    expect(membership).toMatchObject({ role: 'MEMBER', status: 'ACTIVE' })
    // Again, as the same account, found by the provider's subject even once the address changed there.
    idp.next({ sub: `sub-${serial}`, email: `ada.renamed.${serial}@${domain}`, email_verified: true })
    const again = await signInThroughProvider(email, 'en')
    const second = (await (await t.get('/api/profile', { cookie: again.cookie })).json()) as { id: string }
    expect(second.id).toBe(profile.id)
  })

  it('refuses a wrong issuer, audience, nonce or an expired ID token, saying which, and signs no one in', async () => {
    const email = `grace.${serial}@${domain}`
    const cases = [
      [{ iss: 'https://impostor.example' }, 'issuer'],
      [{ aud: 'another-client' }, 'audience'],
      [{ nonce: 'replayed' }, 'nonce'],
      [{ expiresInS: -600 }, 'expired_token'],
    ] as const
    for (const [tamper, reason] of cases) {
      idp.next({ sub: `sub-g-${serial}`, email, email_verified: true }, tamper)
      const { location, cookie } = await signInThroughProvider(email)
      expect(location).toBe(`http://localhost:3000/sign-in?sso=${reason}`)
      expect(cookie).toBeUndefined()
    }
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([])
  })

  it('refuses a state it did not issue or already used, an address outside the domains, and a disabled member', async () => {
    const stale = await t.get('/api/auth/oidc/callback?code=x&state=never-issued')
    expect(stale.headers.get('location')).toBe('http://localhost:3000/sign-in?sso=expired_attempt')
    const email = `lin.${serial}@${domain}`
    idp.next({ sub: `sub-l-${serial}`, email: uniqueEmail('elsewhere'), email_verified: true })
    expect((await signInThroughProvider(email)).location).toBe(
      'http://localhost:3000/sign-in?sso=other_domain',
    )
    idp.next({ sub: `sub-u-${serial}`, email, email_verified: false })
    expect((await signInThroughProvider(email)).location).toBe('http://localhost:3000/sign-in?sso=no_email')
    const member = await signedInMember(t, world.organization.id, 'MEMBER', { status: 'DISABLED' })
    idp.next({ sub: `sub-d-${serial}`, email: member.email, email_verified: true })
    await t.db
      .update(users)
      .set({ email: `d.${serial}@${domain}` })
      .where(eq(users.id, member.id))
    idp.next({ sub: `sub-d-${serial}`, email: `d.${serial}@${domain}`, email_verified: true })
    expect((await signInThroughProvider(`d.${serial}@${domain}`)).location).toBe(
      'http://localhost:3000/sign-in?sso=disabled',
    )
    // An address no organization covers is not sent anywhere.
    const uncovered = await t.get(`/api/auth/oidc/coverage?email=${encodeURIComponent(uniqueEmail('x'))}`)
    expect(uncovered.status).toBe(404)
  })
})

describe('the identity provider’s settings', () => {
  it('keep the secret sealed and never answer it, and refuse an issuer that does not answer', async () => {
    const settings = await t.get(`/api/organizations/${world.organization.id}/identity-provider`, {
      cookie: world.admin.cookie,
    })
    const body = await settings.json()
    expect(body).toMatchObject({
      provider: { issuer: idp.issuer, clientId: 'trousseau', defaultRole: 'MEMBER' },
      redirectUri: 'http://localhost:3000/api/auth/oidc/callback',
      domainProof: 'confirm',
      domains: [
        { domain, proof: 'CONFIRMED', txtName: `_trousseau.${domain}`, verifiedAt: expect.any(String) },
      ],
    })
    expect(JSON.stringify(body)).not.toContain(CLIENT.clientSecret)
    const [row] = await t.db
      .select()
      .from(identityProviders)
      .where(eq(identityProviders.organizationId, world.organization.id))
    expect(row!.clientSecret).not.toContain(CLIENT.clientSecret)
    expect(openSecret(t.deps.secret, row!.clientSecret, 'identity-provider')).toBe(CLIENT.clientSecret)
    const broken = await t.put(`/api/organizations/${world.organization.id}/identity-provider`, {
      cookie: world.admin.cookie,
      json: { issuer: 'http://127.0.0.1:9/', clientId: 'x', defaultRole: 'MEMBER' },
    })
    expect(broken.status).toBe(400)
    expect(((await broken.json()) as { error: { message: string } }).error.message).toContain(
      "The issuer's discovery document",
    )
  })

  it('gives a domain to one organization only', async () => {
    const other = await organizationWithAdmin(t, 'Other')
    const taken = await t.post(`/api/organizations/${other.organization.id}/identity-domains`, {
      cookie: other.admin.cookie,
      json: { domain },
    })
    expect(taken.status).toBe(409)
    const bad = await t.post(`/api/organizations/${other.organization.id}/identity-domains`, {
      cookie: other.admin.cookie,
      json: { domain: 'https://example.com/' },
    })
    expect(bad.status).toBe(400)
  })
})
