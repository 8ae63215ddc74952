import { randomUUID } from 'node:crypto'
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm'
import type { Locale } from '../../../contract/locale.ts'
import { emailTokens, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ipBucket } from '../../http/ip-bucket.ts'
import { hitRateLimit, peekRateLimit, type RateLimitPolicy } from '../../http/rate-limit.ts'
import { signInMail } from '../../mail/sign-in-mail.ts'
import { keyedHash, newLinkToken, newSignInCode, sameHash } from '../../shared/secret-tokens.ts'

const MINUTE = 60_000
const SIGN_IN_TOKEN_TTL_MS = 10 * MINUTE
export const MAX_CODE_ATTEMPTS = 5
export const SEND_LIMIT_PER_ADDRESS: RateLimitPolicy = { limit: 5, windowMs: 15 * MINUTE }
export const SEND_LIMIT_PER_IP: RateLimitPolicy = { limit: 30, windowMs: 15 * MINUTE }
export const FAILED_SIGN_IN_LIMIT_PER_IP: RateLimitPolicy = { limit: 30, windowMs: 15 * MINUTE }

type Deps = Pick<AppDeps, 'database' | 'clock' | 'secret' | 'mailer' | 'config'>

export type SignInRequestOutcome =
  | { outcome: 'sent' }
  /** Silently not sent: the caller answers exactly as for 'sent' so nobody learns about the address. */
  | { outcome: 'address-limited' }
  | { outcome: 'ip-limited'; retryAfterS: number }

export type VerifiedAddress = { email: string; locale: Locale }

/** Sends a fresh link and code to the address, known or not, within the per-IP and per-address limits. */
export async function requestSignIn(
  deps: Deps,
  input: { email: string; locale?: Locale; ip: string },
): Promise<SignInRequestOutcome> {
  const { db } = deps.database
  const now = deps.clock.now()
  const perIp = await hitRateLimit(db, `sign-in-send:ip:${ipBucket(input.ip)}`, SEND_LIMIT_PER_IP, now)
  if (perIp.limited) return { outcome: 'ip-limited', retryAfterS: perIp.retryAfterS }
  const perAddress = await hitRateLimit(db, `sign-in-send:email:${input.email}`, SEND_LIMIT_PER_ADDRESS, now)
  if (perAddress.limited) return { outcome: 'address-limited' }

  const [known] = await db.select({ locale: users.locale }).from(users).where(eq(users.email, input.email))
  const locale = input.locale ?? known?.locale ?? 'fr'
  const { token, code } = await issueSignInToken(deps, input.email, locale)
  await deps.mailer.send(
    signInMail({ to: input.email, locale, publicUrl: deps.config.publicUrl, token, code }),
  )
  return { outcome: 'sent' }
}

/**
 * Voids every live token of the address and stores a new one (hashes only). A transaction-scoped advisory
 * lock on the address serializes two sends for one address (on PostgreSQL both would otherwise void nothing
 * and insert, leaving two live codes); different addresses never wait for each other.
 */
export async function issueSignInToken(
  deps: Pick<Deps, 'database' | 'clock' | 'secret'>,
  email: string,
  locale: Locale,
): Promise<{ token: string; code: string }> {
  const now = deps.clock.now()
  const id = randomUUID()
  const token = newLinkToken()
  const code = newSignInCode()
  await deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`sign-in:${email}`}))`)
    await tx
      .update(emailTokens)
      .set({ voidedAt: now })
      .where(and(eq(emailTokens.email, email), isNull(emailTokens.consumedAt), isNull(emailTokens.voidedAt)))
    await tx.insert(emailTokens).values({
      id,
      email,
      locale,
      linkTokenHash: keyedHash(deps.secret, 'link', token),
      codeHash: keyedHash(deps.secret, 'code', `${id}:${code}`),
      createdAt: now,
      expiresAt: new Date(now.getTime() + SIGN_IN_TOKEN_TTL_MS),
    })
  })
  return { token, code }
}

const live = (now: Date) =>
  and(isNull(emailTokens.consumedAt), isNull(emailTokens.voidedAt), gt(emailTokens.expiresAt, now))

/**
 * Consumes the token in one conditional UPDATE: of two racing requests only one gets the row back. The
 * lookup is by keyed hash, which an attacker can neither predict nor probe byte by byte.
 */
export async function consumeLinkToken(
  deps: Pick<Deps, 'database' | 'clock' | 'secret'>,
  token: string,
): Promise<VerifiedAddress | null> {
  const now = deps.clock.now()
  const [row] = await deps.database.db
    .update(emailTokens)
    .set({ consumedAt: now })
    .where(and(eq(emailTokens.linkTokenHash, keyedHash(deps.secret, 'link', token)), live(now)))
    .returning({ email: emailTokens.email, locale: emailTokens.locale })
  return row ?? null
}

/**
 * Every try first claims one of the MAX_CODE_ATTEMPTS slots atomically, right code or not, so a burst of
 * parallel guesses cannot get past the limit; then the code is compared in constant time and the token
 * consumed with the same conditional UPDATE as a link.
 */
export async function consumeCode(
  deps: Pick<Deps, 'database' | 'clock' | 'secret'>,
  email: string,
  code: string,
): Promise<VerifiedAddress | null> {
  const { db } = deps.database
  const now = deps.clock.now()
  const claimed = await db
    .update(emailTokens)
    .set({ attempts: sql`${emailTokens.attempts} + 1` })
    .where(and(eq(emailTokens.email, email), live(now), lt(emailTokens.attempts, MAX_CODE_ATTEMPTS)))
    .returning({ id: emailTokens.id, codeHash: emailTokens.codeHash, attempts: emailTokens.attempts })

  const match = claimed.find((row) =>
    sameHash(row.codeHash, keyedHash(deps.secret, 'code', `${row.id}:${code}`)),
  )
  if (match) {
    const [row] = await db
      .update(emailTokens)
      .set({ consumedAt: now })
      .where(and(eq(emailTokens.id, match.id), isNull(emailTokens.consumedAt), isNull(emailTokens.voidedAt)))
      .returning({ email: emailTokens.email, locale: emailTokens.locale })
    return row ?? null
  }
  const exhausted = claimed.filter((row) => row.attempts >= MAX_CODE_ATTEMPTS).map((row) => row.id)
  if (exhausted.length > 0) {
    await db
      .update(emailTokens)
      .set({ voidedAt: now })
      .where(
        and(inArray(emailTokens.id, exhausted), isNull(emailTokens.consumedAt), isNull(emailTokens.voidedAt)),
      )
  }
  return null
}

const failedKey = (ip: string) => `sign-in-failed:ip:${ipBucket(ip)}`

/** Too many failed sign-ins from this IP: refuse before looking at the token at all. */
export async function signInBlockedForIp(deps: Pick<Deps, 'database' | 'clock'>, ip: string) {
  const state = await peekRateLimit(
    deps.database.db,
    failedKey(ip),
    FAILED_SIGN_IN_LIMIT_PER_IP,
    deps.clock.now(),
  )
  return state.limited ? { retryAfterS: state.retryAfterS } : null
}

export async function recordFailedSignIn(deps: Pick<Deps, 'database' | 'clock'>, ip: string): Promise<void> {
  await hitRateLimit(deps.database.db, failedKey(ip), FAILED_SIGN_IN_LIMIT_PER_IP, deps.clock.now())
}
