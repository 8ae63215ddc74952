import { createHash } from 'node:crypto'
import { and, eq, lt, type SQL, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import type { ContentfulStatusCode } from 'hono/utils/http-status'
import { ErrorCode } from '../../contract/errors.ts'
import type { Db } from '../db/client.ts'
import { oncePerDatabase } from '../db/prepared.ts'
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
    if (claimed.length === 0) return storedAnswer(tx, input, hash)
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

/** The answer stored under the key, for a replay of the same request; 422 for another request. */
async function storedAnswer(
  db: Db,
  input: { userId: string; key: string },
  hash: string,
): Promise<StoredAnswer & { replayed: true }> {
  const [stored] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, input.userId), eq(idempotencyKeys.key, input.key)))
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

/**
 * The statement of `idempotentWrite`: claims the key with the answer in it and, only if the claim took the key,
 * makes `write(claimed)` (an `insert … select … where ${claimed} returning 1` with placeholders of its own).
 * Built once per database and name.
 */
const writeStatements = oncePerDatabase(() => new Map<string, ReturnType<typeof prepareWrite>>())

/** A write of `idempotentWrite`: its statement's name, the write, and what follows from the write's rows. */
export type IdempotentWrite = {
  name: string
  write: (claimed: SQL) => SQL
  /**
   * A `select …` over `written` (the write's returned rows), run in the same statement: an effect of the write
   * a data-modifying CTE cannot make (a function call, such as appending to the organization's log).
   */
  followUp?: SQL
}

function prepareWrite(db: Db, { name, write, followUp }: IdempotentWrite) {
  const value = (field: string) => sql.placeholder(`claim_${field}`)
  const claim = db.$with('claim', { key: sql<string>`key` }).as(
    sql`insert into ${idempotencyKeys} (user_id, key, request, request_hash, status, response_body, created_at)
      values (${value('user')}::uuid, ${value('key')}::uuid, ${value('request')}::text, ${value('hash')}::text,
        ${value('status')}::integer, ${value('body')}::jsonb, ${value('at')}::timestamptz)
      on conflict do nothing returning key`,
  )
  const written = db.$with('written', { one: sql<number>`1` }).as(write(sql`exists (select from claim)`))
  return db
    .with(claim, written)
    .select({
      claimed: sql<number>`count(*)::int`,
      ...(followUp
        ? { followedUp: sql<number>`(select count(*) from (${followUp}) as follow_up)::int` }
        : {}),
    })
    .from(claim)
    .prepare(name)
}

/**
 * `idempotent` for an effect that reads and then makes one write (a scan: reads resolve the value, one insert
 * records it), in a single statement and no transaction: the effect's reads run first (each statement sees
 * what was committed when it started, as inside a READ COMMITTED transaction), then one statement claims the
 * key with the answer already in it and makes the write only if the claim took the key. The key and the
 * write commit together or not at all. A first request costs the effect's reads and that statement
 * (`idempotent` adds BEGIN, a claim, an answer and COMMIT).
 * - replay (same request): the claim finds the key, the write does nothing, the stored answer is read and
 *   returned (the effect's reads were made for nothing: replays are rare);
 * - a concurrent twin: its claim waits for the first statement's key row, then finds it, as a replay;
 * - the same key for a different request: 422 `idempotency_key_reused`;
 * - an effect that throws writes nothing.
 * `write` is given with its statement's `name` (one write per name; parsed and planned once per connection);
 * the effect answers the values of the write's placeholders.
 */
export async function idempotentWrite(
  db: Db,
  input: { userId: string; key: string; request: string; payload: unknown; now: Date },
  statement: IdempotentWrite,
  effect: () => Promise<StoredAnswer & { values: Record<string, unknown> }>,
): Promise<StoredAnswer & { replayed: boolean }> {
  const hash = requestHash(input.request, input.payload)
  const { values, ...answer } = await effect()
  const statements = writeStatements(db)
  let prepared = statements.get(statement.name)
  if (!prepared) {
    prepared = prepareWrite(db, statement)
    statements.set(statement.name, prepared)
  }
  const [row] = await prepared.execute({
    ...values,
    claim_user: input.userId,
    claim_key: input.key,
    claim_request: input.request,
    claim_hash: hash,
    claim_status: answer.status,
    claim_body: JSON.stringify(answer.body),
    claim_at: input.now.toISOString(),
  })
  if (row?.claimed === 1) return { ...answer, replayed: false }
  return storedAnswer(db, input, hash)
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
