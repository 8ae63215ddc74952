import { createHash, randomBytes } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { Locale } from '../../../contract/locale.ts'
import { MINUTE, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { addMember, createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { type IdpAccount, startTestIdp, type Tamper } from '../../../tests/server/test-idp.ts'
import { identityProviders, memberships, oidcAttempts, userIdentities, users } from '../../db/schema.ts'
import { keyedHash } from '../../shared/secret-tokens.ts'
import {
  addIdentityDomain,
  removeIdentityProvider,
  saveIdentityProvider,
  verifyIdentityDomain,
} from './settings.ts'
import { finishOidcSignIn, OidcRefused, startOidcSignIn } from './sign-in.ts'

const t = setupTestApp({ config: { oidcAllowHttpIssuers: true, oidcDomainProof: 'confirm' } })
const CLIENT = { clientId: 'trousseau', clientSecret: 'a-very-secret-value' }
let idp: Awaited<ReturnType<typeof startTestIdp>>
beforeAll(async () => {
  idp = await startTestIdp(CLIENT)
})
afterAll(() => idp.close())

let serial = 0
let domain: string
let organizationId: string

/** An organization whose sign-in (the test provider, new people as MANAGER) covers `domain`. */
async function coveredOrganization(name: string, covered: string) {
  const organization = await createOrganization(t, name)
  await saveIdentityProvider(t.deps, organization.id, {
    issuer: idp.issuer,
    ...CLIENT,
    defaultRole: 'MANAGER',
  })
  await addIdentityDomain(t.deps, organization.id, covered)
  await verifyIdentityDomain(t.deps, organization.id, covered)
  return organization.id
}

beforeEach(async () => {
  serial += 1
  t.clock.set(TEST_EPOCH)
  domain = `signin${serial}-${randomBytes(3).toString('hex')}.example`
  organizationId = await coveredOrganization('Campus', domain)
})

/** Our start and the provider's authorization (it signs `account` in at once): the callback's query. */
async function trip(email: string, account: IdpAccount, tamper: Tamper = {}, locale: Locale = 'en') {
  idp.next(account, tamper)
  const url = await startOidcSignIn(t.deps, { email, locale })
  const back = await fetch(url!, { redirect: 'manual' })
  return new URL(back.headers.get('location')!).search
}

/** The refusal a promise ends with: its reason and the language to say it in. */
async function refusal(promise: Promise<unknown>) {
  const error = await promise.then(
    () => new Error('signed in'),
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(OidcRefused)
  const { reason, locale, message } = error as OidcRefused
  expect(message).toBe(reason)
  return { reason, locale }
}

/** The log lines written while `run` ran, without their time. */
async function logsOf(run: () => Promise<unknown>) {
  const before = t.logLines.length
  await run()
  return t.logLines.slice(before).map((line) => {
    const { time: _, pid: __, hostname: ___, ...rest } = JSON.parse(line) as Record<string, unknown>
    return rest
  })
}

const makeUnreachable = (at: Date) =>
  t.db
    .update(identityProviders)
    .set({ issuer: 'http://127.0.0.1:9', updatedAt: at })
    .where(eq(identityProviders.organizationId, organizationId))

describe('starting an organization sign-in', () => {
  it('sends the browser to the authorization endpoint with exactly PKCE (S256), state, nonce, scope and the address, and keeps the attempt hashed for ten minutes', async () => {
    const email = `ada.${serial}@${domain}`
    const now = t.clock.now()
    const url = (await startOidcSignIn(t.deps, { email, locale: 'en' }))!
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/authorize`)
    const params = Object.fromEntries(url.searchParams)
    expect(params).toEqual({
      client_id: 'trousseau',
      redirect_uri: 'http://localhost:3000/api/auth/oidc/callback',
      scope: 'openid email profile',
      response_type: 'code',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      login_hint: email,
    })
    const rows = await t.db.select().from(oidcAttempts).where(eq(oidcAttempts.organizationId, organizationId))
    expect(rows).toEqual([
      {
        stateHash: keyedHash(t.deps.secret, 'oidc-state', params.state!),
        organizationId,
        codeVerifier: expect.any(String),
        nonce: params.nonce,
        email,
        locale: 'en',
        expiresAt: new Date(now.getTime() + 10 * MINUTE),
      },
    ])
    expect(createHash('sha256').update(rows[0]!.codeVerifier).digest('base64url')).toBe(params.code_challenge)
    expect(rows[0]!.codeVerifier).not.toBe(params.state)
  })

  it('purges the attempts already expired, keeping one that expires at that very moment', async () => {
    const now = t.clock.now()
    const attempt = (expiresAt: Date) => ({
      stateHash: randomBytes(16).toString('hex'),
      organizationId,
      codeVerifier: 'v',
      nonce: 'n',
      email: 'x@example.test',
      locale: 'fr' as const,
      expiresAt,
    })
    const expired = attempt(new Date(now.getTime() - 1))
    const expiring = attempt(now)
    await t.db.insert(oidcAttempts).values([expired, expiring])
    await startOidcSignIn(t.deps, { email: `a.${serial}@${domain}`, locale: 'fr' })
    const left = await t.db.select().from(oidcAttempts).where(eq(oidcAttempts.organizationId, organizationId))
    expect(left.map((row) => row.stateHash)).toContain(expiring.stateHash)
    expect(left.map((row) => row.stateHash)).not.toContain(expired.stateHash)
    expect(left).toHaveLength(2)
  })

  it('answers null for an address no organization covers, and refuses in the person’s language when the provider does not answer', async () => {
    expect(await startOidcSignIn(t.deps, { email: uniqueEmail('nobody'), locale: 'en' })).toBeNull()
    await makeUnreachable(new Date(TEST_EPOCH.getTime() + 1))
    const logs = await logsOf(async () => {
      expect(
        await refusal(startOidcSignIn(t.deps, { email: `b.${serial}@${domain}`, locale: 'en' })),
      ).toEqual({ reason: 'unreachable', locale: 'en' })
    })
    expect(logs).toEqual([
      expect.objectContaining({
        level: 40,
        organizationId,
        err: expect.objectContaining({ message: expect.any(String) }),
        msg: 'Identity provider unreachable',
      }),
    ])
    expect(
      await t.db.select().from(oidcAttempts).where(eq(oidcAttempts.organizationId, organizationId)),
    ).toEqual([])
  })
})

describe('finishing an organization sign-in', () => {
  it('takes an attempt once, until exactly ten minutes after it started', async () => {
    const email = `once.${serial}@${domain}`
    const account = { sub: `once-${serial}`, email, email_verified: true }
    const search = await trip(email, account)
    t.clock.advance(10 * MINUTE - 1)
    const done = await finishOidcSignIn(t.deps, search)
    expect(done).toMatchObject({ organizationId, locale: 'en', user: { email } })
    expect(await refusal(finishOidcSignIn(t.deps, search))).toEqual({
      reason: 'expired_attempt',
      locale: 'fr',
    })
    t.clock.set(TEST_EPOCH)
    const late = await trip(email, account)
    t.clock.advance(10 * MINUTE)
    // Expired: in French, as an attempt no longer found says it.
    expect(await refusal(finishOidcSignIn(t.deps, late))).toEqual({ reason: 'expired_attempt', locale: 'fr' })
    expect(
      await t.db.select().from(oidcAttempts).where(eq(oidcAttempts.organizationId, organizationId)),
    ).toEqual([])
    // No state at all.
    expect(await refusal(finishOidcSignIn(t.deps, '?code=x'))).toEqual({
      reason: 'expired_attempt',
      locale: 'fr',
    })
  })

  it('refuses in the attempt’s language once the provider was removed, or when it does not answer', async () => {
    const email = `gone.${serial}@${domain}`
    const search = await trip(email, { sub: `gone-${serial}`, email })
    await removeIdentityProvider(t.deps, organizationId)
    expect(await refusal(finishOidcSignIn(t.deps, search))).toEqual({
      reason: 'expired_attempt',
      locale: 'en',
    })
    await saveIdentityProvider(t.deps, organizationId, {
      issuer: idp.issuer,
      ...CLIENT,
      defaultRole: 'MEMBER',
    })
    const again = await trip(email, { sub: `gone-${serial}`, email })
    await makeUnreachable(new Date(TEST_EPOCH.getTime() + 2))
    expect(await refusal(finishOidcSignIn(t.deps, again))).toEqual({ reason: 'unreachable', locale: 'en' })
  })

  it('says which part of the answer or its ID token was wrong, and logs it with openid-client’s code', async () => {
    const email = `grace.${serial}@${domain}`
    const account = { sub: `grace-${serial}`, email, email_verified: true }
    const cases: Array<[Tamper, string, string, IdpAccount?]> = [
      [{ iss: 'https://impostor.example' }, 'issuer', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED'],
      [{ aud: 'another-client' }, 'audience', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED'],
      [{ aud: ['trousseau', 'another-client'] }, 'audience', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED'],
      [
        { aud: ['trousseau', 'another-client'], azp: 'another-client' },
        'audience',
        'OAUTH_JWT_CLAIM_COMPARISON_FAILED',
      ],
      [{ nonce: 'replayed' }, 'nonce', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED'],
      [{ expiresInS: -600 }, 'expired_token', 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED'],
      [{ withoutIdToken: true }, 'invalid_token', 'OAUTH_INVALID_RESPONSE'],
      // No subject: a claim openid-client requires, missing rather than compared.
      [{}, 'invalid_token', 'OAUTH_INVALID_RESPONSE', { email } as unknown as IdpAccount],
    ]
    for (const [tamper, reason, code, who = account] of cases) {
      const search = await trip(email, who, tamper)
      const logs = await logsOf(async () => {
        expect(await refusal(finishOidcSignIn(t.deps, search))).toEqual({ reason, locale: 'en' })
      })
      expect(logs).toEqual([{ level: 30, organizationId, reason, code, msg: 'Organization sign-in refused' }])
    }
    // The provider's own error, and a code it does not know (its token endpoint refuses the grant).
    const denied = new URLSearchParams(await trip(email, account))
    denied.delete('code')
    denied.set('error', 'access_denied')
    expect(await refusal(finishOidcSignIn(t.deps, `?${denied}`))).toEqual({
      reason: 'provider_error',
      locale: 'en',
    })
    const unknown = new URLSearchParams(await trip(email, account))
    unknown.set('code', 'not-a-code')
    expect(await refusal(finishOidcSignIn(t.deps, `?${unknown}`))).toEqual({
      reason: 'invalid_token',
      locale: 'en',
    })
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([])
    // Several audiences are fine when the client is the authorized party.
    const several = await trip(email, account, { aud: ['trousseau', 'another-client'], azp: 'trousseau' })
    expect((await finishOidcSignIn(t.deps, several)).user.email).toBe(email)
  })
})

describe('the account of an organization sign-in', () => {
  it('is made the first time from the address (trimmed, lower case, verified or not said), names cut at 100 characters and the attempt’s language, with an ACTIVE membership of the default role', async () => {
    const email = `new.${serial}@${domain}`
    const search = await trip(email, {
      sub: `new-${serial}`,
      email: `  New.${serial}@${domain.toUpperCase()} `,
      given_name: 'A'.repeat(101),
      family_name: 'B'.repeat(101),
    })
    t.clock.advance(MINUTE)
    const now = t.clock.now()
    const done = await finishOidcSignIn(t.deps, search)
    expect(done.organizationId).toBe(organizationId)
    expect(done.locale).toBe('en')
    expect(done.user).toMatchObject({
      email,
      firstName: 'A'.repeat(100),
      lastName: 'B'.repeat(100),
      locale: 'en',
      createdAt: now,
      lastSeenAt: now,
      signedInAt: now,
      selectedOrganizationId: organizationId,
    })
    const [stored] = await t.db.select().from(users).where(eq(users.email, email))
    expect(stored).toEqual(done.user)
    expect(await t.db.select().from(memberships).where(eq(memberships.userId, done.user.id))).toEqual([
      expect.objectContaining({ organizationId, role: 'MANAGER', status: 'ACTIVE', createdAt: now }),
    ])
    expect(await t.db.select().from(userIdentities).where(eq(userIdentities.userId, done.user.id))).toEqual([
      { organizationId, subject: `new-${serial}`, userId: done.user.id, createdAt: now },
    ])
  })

  it('has empty names when the provider gives none as text, and a French account from a French attempt', async () => {
    const email = `plain.${serial}@${domain}`
    const search = await trip(
      email,
      { sub: `plain-${serial}`, email, email_verified: true, given_name: 42, family_name: ['x'] },
      {},
      'fr',
    )
    const done = await finishOidcSignIn(t.deps, search)
    expect(done.user).toMatchObject({ email, firstName: '', lastName: '', locale: 'fr' })
    expect(done.locale).toBe('fr')
  })

  it('links an existing account by its address the first time, then finds it by the subject whatever the address says, keeping its role', async () => {
    const email = `grace.${serial}@${domain}`
    const existing = await t.signIn(email)
    await t.db
      .update(users)
      .set({ firstName: 'Grace', lastName: 'Hopper' })
      .where(eq(users.id, existing.profile.id))
    // A member elsewhere already, with that organization selected: this one is selected now.
    const elsewhere = await createOrganization(t, 'Elsewhere')
    await addMember(t, { userId: existing.profile.id, organizationId: elsewhere.id, role: 'MEMBER' })
    const first = await finishOidcSignIn(
      t.deps,
      await trip(email, { sub: `grace-${serial}`, email, email_verified: true, given_name: 'Other' }),
    )
    expect(first.user.selectedOrganizationId).toBe(organizationId)
    expect(first.user).toMatchObject({
      id: existing.profile.id,
      firstName: 'Grace',
      lastName: 'Hopper',
      locale: 'fr',
    })
    await t.db
      .update(memberships)
      .set({ role: 'ADMIN' })
      .where(and(eq(memberships.userId, existing.profile.id), eq(memberships.organizationId, organizationId)))
    t.clock.advance(MINUTE)
    // The provider now says another, unverified address, outside the domain: the subject is what counts.
    const again = await finishOidcSignIn(
      t.deps,
      await trip(email, { sub: `grace-${serial}`, email: uniqueEmail('moved'), email_verified: false }),
    )
    expect(again.user).toMatchObject({
      id: existing.profile.id,
      email,
      lastSeenAt: t.clock.now(),
      selectedOrganizationId: organizationId,
    })
    expect(
      await t.db
        .select()
        .from(memberships)
        .where(
          and(eq(memberships.userId, existing.profile.id), eq(memberships.organizationId, organizationId)),
        ),
    ).toEqual([expect.objectContaining({ organizationId, role: 'ADMIN', status: 'ACTIVE' })])
  })

  it('takes the address and names from the userinfo endpoint when the ID token has no address, and only then', async () => {
    const email = `info.${serial}@${domain}`
    const fromInfo = await finishOidcSignIn(
      t.deps,
      await trip(
        email,
        { sub: `info-${serial}`, given_name: 'Idtoken', family_name: 'Idtoken' },
        {
          userinfo: {
            sub: `info-${serial}`,
            email,
            email_verified: true,
            family_name: 'Userinfo',
            locale: 'de',
          },
        },
      ),
    )
    expect(fromInfo.user).toMatchObject({ email, firstName: 'Idtoken', lastName: 'Userinfo', locale: 'en' })
    const named = `named.${serial}@${domain}`
    const fromNamedInfo = await finishOidcSignIn(
      t.deps,
      await trip(
        named,
        { sub: `named-${serial}`, given_name: 'Idtoken' },
        { userinfo: { sub: `named-${serial}`, email: named, given_name: 'U'.repeat(100) } },
      ),
    )
    // A name of exactly 100 characters is kept whole.
    expect(fromNamedInfo.user).toMatchObject({ email: named, firstName: 'U'.repeat(100), lastName: '' })
    // An address in the ID token is the one used, whatever userinfo would say.
    const other = `token.${serial}@${domain}`
    const fromToken = await finishOidcSignIn(
      t.deps,
      await trip(
        other,
        { sub: `token-${serial}`, email: other },
        { userinfo: { sub: `token-${serial}`, email: uniqueEmail('info'), email_verified: false } },
      ),
    )
    expect(fromToken.user.email).toBe(other)
    const unverified = await trip(
      email,
      { sub: `unverified-${serial}`, email: 42 },
      { userinfo: { sub: `unverified-${serial}`, email: `u.${serial}@${domain}`, email_verified: false } },
    )
    expect(await refusal(finishOidcSignIn(t.deps, unverified))).toEqual({ reason: 'no_email', locale: 'en' })
    const someoneElse = await trip(
      email,
      { sub: `asked-${serial}` },
      { userinfo: { sub: `answered-${serial}`, email: `e.${serial}@${domain}`, email_verified: true } },
    )
    expect(await refusal(finishOidcSignIn(t.deps, someoneElse))).toEqual({
      reason: 'invalid_token',
      locale: 'en',
    })
    expect(
      await t.db
        .select()
        .from(users)
        .where(eq(users.email, `e.${serial}@${domain}`)),
    ).toEqual([])
  })

  it('is refused without a usable verified address, outside this organization’s domains, or to a disabled member', async () => {
    const email = `x.${serial}@${domain}`
    const otherDomain = `other${serial}-${randomBytes(3).toString('hex')}.example`
    await coveredOrganization('Other', otherDomain)
    const cases: Array<[IdpAccount, string]> = [
      [{ sub: `s1-${serial}` }, 'no_email'],
      [{ sub: `s2-${serial}`, email: '' }, 'no_email'],
      [{ sub: `s3-${serial}`, email: '   ' }, 'no_email'],
      [{ sub: `s4-${serial}`, email: 42 }, 'no_email'],
      [{ sub: `s5-${serial}`, email, email_verified: false }, 'no_email'],
      [{ sub: `s6-${serial}`, email: uniqueEmail('elsewhere'), email_verified: true }, 'other_domain'],
      [{ sub: `s7-${serial}`, email: `x.${serial}@${otherDomain}`, email_verified: true }, 'other_domain'],
    ]
    for (const [account, reason] of cases) {
      expect(await refusal(finishOidcSignIn(t.deps, await trip(email, account)))).toEqual({
        reason,
        locale: 'en',
      })
    }
    const disabled = await t.signIn(`d.${serial}@${domain}`)
    await addMember(t, { userId: disabled.profile.id, organizationId, role: 'MEMBER', status: 'DISABLED' })
    const search = await trip(`d.${serial}@${domain}`, { sub: `d-${serial}`, email: `d.${serial}@${domain}` })
    expect(await refusal(finishOidcSignIn(t.deps, search))).toEqual({ reason: 'disabled', locale: 'en' })
    expect(
      await t.db.select().from(userIdentities).where(eq(userIdentities.organizationId, organizationId)),
    ).toEqual([])
    expect(await t.db.select().from(users).where(eq(users.email, email))).toEqual([])
  })
})
