import { createHash } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ErrorCode } from '../../contract/errors.ts'
import type { Db } from '../db/client.ts'
import { idempotencyKeys } from '../db/schema.ts'
import { ApiError } from './errors.ts'

export type StoredAnswer = { status: ContentfulStatusCode; body: unknown }

/** Sent on an answer that was stored earlier for the same Idempotency-Key, rather than computed now. */
export const REPLAYED_HEADER = 'Idempotent-Replayed'

/** Stable JSON: object keys sorted, so `{a,b}` and `{b,a}` hash alike. */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined)
  entries.sort(([a], [b]) => (a < b ? -1 : 1)) // one object's keys are never equal
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`
}

export function requestHash(request: string, payload: unknown): string {
  return createHash('sha256').update(request).update('\n').update(canonical(payload)).digest('hex')
}

/**
 * Runs `effect` at most once per (user, key). The key's row is claimed inside the same transaction as the
 * effect, so the effect and its stored answer commit together or not at all:
 * - first request: claims the key, runs the effect, stores the answer, commits;
 * - replay (same request): gets the stored answer, and `effect` does not run;
 * - a concurrent twin: PostgreSQL makes its claim wait for the first transaction, then it reads the answer
 *   (PGlite runs transactions one at a time anyway);
 * - the same key for a different request (method, path or payload): 422 `idempotency_key_reused`.
 * An effect that throws stores nothing, so the client may retry with the same key.
 */
export async function idempotent(
  db: Db,
  input: { userId: string; key: string; request: string; payload: unknown; now: Date },
  effect: (tx: Db) => Promise<StoredAnswer>,
): Promise<StoredAnswer & { replayed: boolean }> {
  const hash = requestHash(input.request, input.payload)
  const where = and(eq(idempotencyKeys.userId, input.userId), eq(idempotencyKeys.key, input.key))
  return db.transaction(async (tx) => {
    const claimed = await tx
      .insert(idempotencyKeys)
      .values({
        userId: input.userId,
        key: input.key,
        request: input.request,
        requestHash: hash,
        status: 0,
        responseBody: null,
        createdAt: input.now,
      })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key })
      // Named: PostgreSQL parses and plans it once per connection (the text is the same for every request).
      .prepare('idempotency_claim')
      .execute()
    if (claimed.length === 0) {
      const [stored] = await tx.select().from(idempotencyKeys).where(where)
      // Stryker disable next-line all: a safety net: only a purge of the key between the claim and this read reaches it
      if (!stored) throw new ApiError(409, ErrorCode.conflict, 'Please retry this request.')
      if (stored.requestHash !== hash) {
        throw new ApiError(
          422,
          ErrorCode.idempotencyKeyReused,
          'This Idempotency-Key was already used for another request.',
        )
      }
      return { status: stored.status as ContentfulStatusCode, body: stored.responseBody, replayed: true }
    }
    const answer = await effect(tx)
    await tx
      .update(idempotencyKeys)
      .set({ status: answer.status, responseBody: answer.body })
      .where(where)
      .prepare('idempotency_answer')
      .execute()
    return { ...answer, replayed: false }
  })
}

/**
 * The stored or fresh answer as a JSON response, marked when replayed. `upgrade` brings a replayed body up to
 * the current schema (an answer stored by an earlier version may lack a field added since).
 */
export function idempotentResponse(
  c: Context,
  answer: StoredAnswer & { replayed: boolean },
  upgrade: (body: unknown) => unknown = (body) => body,
): Response {
  if (!answer.replayed) return c.json(answer.body as object, answer.status)
  c.header(REPLAYED_HEADER, 'true')
  return c.json(upgrade(answer.body) as object, answer.status)
}

/** Offline queues replay within days; after a month a key is forgotten. */
export const IDEMPOTENCY_RETENTION_MS = 30 * 24 * 60 * 60 * 1000

export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)))
}
