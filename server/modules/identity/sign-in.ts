import { and, eq, lt } from 'drizzle-orm'
import * as client from 'openid-client'
import type { OidcFailure } from '../../../contract/identity.ts'
import type { Locale } from '../../../contract/locale.ts'
import {
  identityProviders,
  memberships,
  oidcAttempts,
  type UserRow,
  userIdentities,
  users,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { coveringProvider } from '../../shared/identity-coverage.ts'
import { keyedHash } from '../../shared/secret-tokens.ts'
import { activateMemberships } from '../members/service.ts'
import { providerConfiguration } from './provider-client.ts'
import { redirectUriOf } from './settings.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'secret' | 'logger'>

/** How long the provider may take to send the browser back (the person types a password, answers MFA). */
const ATTEMPT_TTL_MS = 10 * 60 * 1000

export class OidcRefused extends Error {
  readonly reason: OidcFailure
  readonly locale: Locale

  constructor(reason: OidcFailure, locale: Locale) {
    super(reason)
    this.reason = reason
    this.locale = locale
  }
}

const stateHash = (deps: Pick<Deps, 'secret'>, state: string) => keyedHash(deps.secret, 'oidc-state', state)

/**
 * Where to send the browser: the provider's authorization endpoint with PKCE (S256), a state and a nonce, the
 * address as `login_hint`. The attempt is kept (its state hashed) until the browser comes back, at most ten
 * minutes. Null when no organization's sign-in covers the address.
 */
export async function startOidcSignIn(
  deps: Deps,
  input: { email: string; locale: Locale },
): Promise<URL | null> {
  const covering = await coveringProvider(deps.database.db, input.email)
  if (!covering) return null
  const configuration = await providerConfiguration(deps, covering.provider).catch((error: unknown) => {
    deps.logger.warn(
      { err: error, organizationId: covering.provider.organizationId },
      'Identity provider unreachable',
    )
    throw new OidcRefused('unreachable', input.locale)
  })
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const now = deps.clock.now()
  await deps.database.db.delete(oidcAttempts).where(lt(oidcAttempts.expiresAt, now))
  await deps.database.db.insert(oidcAttempts).values({
    stateHash: stateHash(deps, state),
    organizationId: covering.provider.organizationId,
    codeVerifier,
    nonce,
    email: input.email,
    locale: input.locale,
    expiresAt: new Date(now.getTime() + ATTEMPT_TTL_MS),
  })
  return client.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUriOf(deps.config.publicUrl),
    scope: 'openid email profile',
    response_type: 'code',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: input.email,
  })
}

/** The named claims of a userinfo answer, where it has them. */
const pick = (info: Record<string, unknown>, names: readonly string[]) =>
  Object.fromEntries(names.filter((name) => info[name] !== undefined).map((name) => [name, info[name]]))

/** What openid-client's refusal of the answer or its ID token was, for the person to read. */
function failureOf(error: unknown): OidcFailure {
  if (error instanceof client.AuthorizationResponseError) return 'provider_error'
  // openid-client's ClientError carries oauth4webapi's error code, and the claim at fault in its cause's cause.
  type Cause = { code?: string; claim?: string; cause?: Cause }
  const { code, cause } = error as Cause
  const claim = cause?.cause?.claim ?? cause?.claim
  // Stryker disable next-line ConditionalExpression: only oauth4webapi's claim comparisons blame iss, aud, azp or nonce
  if (code === 'OAUTH_JWT_CLAIM_COMPARISON_FAILED') {
    if (claim === 'iss') return 'issuer'
    if (claim === 'aud' || claim === 'azp') return 'audience'
    if (claim === 'nonce') return 'nonce'
  }
  if (code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') return 'expired_token'
  return 'invalid_token'
}

/**
 * The browser is back from the provider: the attempt is found by its state (used once), the code exchanged with
 * its PKCE verifier, and the ID token checked by openid-client (signature, issuer, audience, expiry, nonce).
 * The person is found by the provider's subject; else, the first time, by their verified address in a covered
 * domain (linked from then on) or made a new account. Not yet a member: they become one with the provider's
 * default role, so keys can be lent to a new hire on day one. A DISABLED membership is refused.
 */
export async function finishOidcSignIn(
  deps: Deps,
  search: string,
): Promise<{ user: UserRow; organizationId: string; locale: Locale }> {
  const { db } = deps.database
  const now = deps.clock.now()
  const redirectUri = redirectUriOf(deps.config.publicUrl)
  const callbackUrl = new URL(`${redirectUri}${search}`)
  // Stryker disable next-line StringLiteral: every attempt has a random state, so no stand-in for a missing one finds any
  const state = callbackUrl.searchParams.get('state') ?? ''
  const [attempt] = await db
    .delete(oidcAttempts)
    .where(eq(oidcAttempts.stateHash, stateHash(deps, state)))
    .returning()
  if (!attempt || attempt.expiresAt <= now) throw new OidcRefused('expired_attempt', 'fr')
  const { locale, organizationId } = attempt
  const [provider] = await db
    .select()
    .from(identityProviders)
    .where(eq(identityProviders.organizationId, organizationId))
  if (!provider) throw new OidcRefused('expired_attempt', locale)
  const configuration = await providerConfiguration(deps, provider).catch(() => {
    throw new OidcRefused('unreachable', locale)
  })
  let claims: { sub: string } & Record<string, unknown>
  try {
    const tokens = await client.authorizationCodeGrant(
      configuration,
      callbackUrl,
      {
        pkceCodeVerifier: attempt.codeVerifier,
        expectedState: state,
        expectedNonce: attempt.nonce,
        idTokenExpected: true,
      },
      { redirect_uri: redirectUri },
    )
    claims = tokens.claims()!
    // A provider may keep the address for its userinfo endpoint (scope claims are not in every ID token).
    if (typeof claims.email !== 'string' && tokens.access_token) {
      const info = await client.fetchUserInfo(configuration, tokens.access_token, claims.sub)
      claims = { ...claims, ...pick(info, ['email', 'email_verified', 'given_name', 'family_name']) }
    }
  } catch (error) {
    const reason = failureOf(error)
    deps.logger.info(
      { organizationId, reason, code: (error as { code?: string }).code },
      'Organization sign-in refused',
    )
    throw new OidcRefused(reason, locale)
  }
  const user = await accountOf(deps, { organizationId, claims, locale })
  return { user: await activateMemberships(db, user, now), organizationId, locale }
}

async function accountOf(
  deps: Deps,
  input: { organizationId: string; claims: { sub: string } & Record<string, unknown>; locale: Locale },
): Promise<UserRow> {
  const { db } = deps.database
  const { organizationId, claims, locale } = input
  const now = deps.clock.now()
  return db.transaction(async (tx) => {
    const [linked] = await tx
      .select({ user: users })
      .from(userIdentities)
      .innerJoin(users, eq(users.id, userIdentities.userId))
      .where(and(eq(userIdentities.organizationId, organizationId), eq(userIdentities.subject, claims.sub)))
    let user = linked?.user
    if (!user) {
      const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : ''
      if (!email || claims.email_verified === false) throw new OidcRefused('no_email', locale)
      const covering = await coveringProvider(tx, email)
      if (covering?.provider.organizationId !== organizationId) throw new OidcRefused('other_domain', locale)
      await tx
        .insert(users)
        .values({
          email,
          firstName: typeof claims.given_name === 'string' ? claims.given_name.slice(0, 100) : '',
          lastName: typeof claims.family_name === 'string' ? claims.family_name.slice(0, 100) : '',
          locale,
          createdAt: now,
          lastSeenAt: now,
        })
        .onConflictDoNothing({ target: users.email })
      const [found] = await tx.select().from(users).where(eq(users.email, email))
      // Stryker disable next-line all: the insert, or the account it met, is that row
      if (!found) throw new Error('signed-in user vanished')
      await tx
        .insert(userIdentities)
        .values({ organizationId, subject: claims.sub, userId: found.id, createdAt: now })
      user = found
    }
    const [membership] = await tx
      .select({ status: memberships.status })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, user.id)))
    if (membership?.status === 'DISABLED') throw new OidcRefused('disabled', locale)
    if (!membership) {
      const [provider] = await tx
        .select({ defaultRole: identityProviders.defaultRole })
        .from(identityProviders)
        .where(eq(identityProviders.organizationId, organizationId))
      await tx.insert(memberships).values({
        userId: user.id,
        organizationId,
        role: provider?.defaultRole ?? 'MEMBER',
        status: 'ACTIVE',
        createdAt: now,
      })
    }
    const [selected] = await tx
      .update(users)
      .set({ selectedOrganizationId: organizationId, lastSeenAt: now })
      .where(eq(users.id, user.id))
      .returning()
    return selected ?? user
  })
}
