import { createHash, randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { DAY } from '../../tests/server/clock.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { idempotencyCalls } from '../../tests/server/idempotency.ts'
import { idempotencyKeys } from '../db/schema.ts'
import {
  IDEMPOTENCY_RETENTION_MS,
  idempotent,
  idempotentResponse,
  pruneIdempotencyKeys,
  REPLAYED_HEADER,
  requestHash,
  type StoredAnswer,
} from './idempotency.ts'

const t = setupTestApp()
const { caller, request } = idempotencyCalls(t)

const storedRow = async (userId: string, key: string) =>
  (
    await t.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
  )[0]

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

describe('requestHash(): the request, a line break, then the payload as canonical JSON', () => {
  it('hashes an object with its keys sorted, arrays in order, and without undefined members', () => {
    expect(requestHash('POST /api/things', { b: [2, { d: 'x', c: null }], a: 1, skipped: undefined })).toBe(
      sha256('POST /api/things\n{"a":1,"b":[2,{"c":null,"d":"x"}]}'),
    )
  })

  it('hashes scalars as JSON, and an absent payload as null', () => {
    expect(requestHash('r', 'text')).toBe(sha256('r\n"text"'))
    expect(requestHash('r', 12)).toBe(sha256('r\n12'))
    expect(requestHash('r', null)).toBe(sha256('r\nnull'))
    expect(requestHash('r', undefined)).toBe(sha256('r\nnull'))
    expect(requestHash('r', [])).toBe(sha256('r\n[]'))
    expect(requestHash('r', {})).toBe(sha256('r\n{}'))
  })

  it('sorts keys by code unit, whatever order they were written in', () => {
    const expected = sha256('r\n{"A":1,"B":2,"a":3,"b":4}')
    expect(requestHash('r', { b: 4, a: 3, B: 2, A: 1 })).toBe(expected)
    expect(requestHash('r', { A: 1, a: 3, B: 2, b: 4 })).toBe(expected)
    expect(requestHash('r', { a: 3, B: 2, b: 4, A: 1 })).toBe(expected)
  })

  it('tells the request from the payload: "x1" with 2 is not "x" with 12', () => {
    expect(requestHash('x1', 2)).not.toBe(requestHash('x', 12))
  })
})

describe('idempotent(): the first request', () => {
  it('runs the effect once, answers its status and body (not replayed) and stores them under the key', async () => {
    const userId = await caller()
    const key = randomUUID()
    let runs = 0
    const answer = await idempotent(t.db, request(userId, key, { value: 'b' }), async () => {
      runs += 1
      return { status: 202, body: { made: 'thing' } }
    })
    expect(answer).toEqual({ status: 202, body: { made: 'thing' }, replayed: false })
    expect(runs).toBe(1)
    expect(await storedRow(userId, key)).toEqual({
      userId,
      key,
      request: 'POST /api/things',
      requestHash: requestHash('POST /api/things', { value: 'b' }),
      status: 202,
      responseBody: { made: 'thing' },
      createdAt: t.clock.now(),
    })
  })

  it('runs the effect inside the transaction that claims the key: it sees the claim (status 0, no body yet)', async () => {
    const userId = await caller()
    const key = randomUUID()
    const answer = await idempotent(t.db, request(userId, key), async (tx) => {
      const [claim] = await tx
        .select()
        .from(idempotencyKeys)
        .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
      return { status: 201, body: { status: claim?.status, body: claim?.responseBody } }
    })
    expect(answer.body).toEqual({ status: 0, body: null })
  })

  it('keeps keys apart per user: another user’s same key runs its own effect', async () => {
    const [first, second] = [await caller(), await caller()]
    const key = randomUUID()
    await idempotent(t.db, request(first, key), async () => ({ status: 201, body: { by: 'first' } }))
    const other = await idempotent(t.db, request(second, key), async () => ({
      status: 201,
      body: { by: 'second' },
    }))
    expect(other).toEqual({ status: 201, body: { by: 'second' }, replayed: false })
    expect((await storedRow(first, key))?.responseBody).toEqual({ by: 'first' })
  })
})

describe('idempotent(): a replay', () => {
  it('answers the stored status and body, replayed, and does not run the effect again', async () => {
    const userId = await caller()
    const key = randomUUID()
    await idempotent(t.db, request(userId, key), async () => ({ status: 202, body: { run: 1 } }))
    let ran = false
    const replay = await idempotent(t.db, request(userId, key), async () => {
      ran = true
      return { status: 200, body: { run: 2 } }
    })
    expect(replay).toEqual({ status: 202, body: { run: 1 }, replayed: true })
    expect(ran).toBe(false)
    expect((await storedRow(userId, key))?.status).toBe(202)
  })

  it('refuses the key for another payload: 422 idempotency_key_reused, the stored answer kept', async () => {
    const userId = await caller()
    const key = randomUUID()
    await idempotent(t.db, request(userId, key, { value: 'a' }), async () => ({
      status: 201,
      body: { n: 1 },
    }))
    let ran = false
    await expect(
      idempotent(t.db, request(userId, key, { value: 'b' }), async () => {
        ran = true
        return { status: 201, body: { n: 2 } }
      }),
    ).rejects.toMatchObject({
      status: 422,
      code: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used for another request.',
    })
    expect(ran).toBe(false)
    expect(await storedRow(userId, key)).toMatchObject({ status: 201, responseBody: { n: 1 } })
  })
})

describe('idempotentResponse()', () => {
  const respond = (answer: StoredAnswer & { replayed: boolean }, upgrade?: (body: unknown) => unknown) =>
    new Hono().get('/', (c) => idempotentResponse(c, answer, upgrade)).request('/')

  it('answers a fresh answer as JSON with its status, unmarked and not upgraded', async () => {
    const response = await respond({ status: 201, body: { a: 1 }, replayed: false }, () => ({
      upgraded: true,
    }))
    expect(response.status).toBe(201)
    expect(response.headers.get(REPLAYED_HEADER)).toBeNull()
    expect(await response.json()).toEqual({ a: 1 })
  })

  it('marks a replayed answer Idempotent-Replayed: true and brings its body up to date', async () => {
    const response = await respond({ status: 202, body: { a: 1 }, replayed: true }, (body) => ({
      ...(body as object),
      added: true,
    }))
    expect(REPLAYED_HEADER).toBe('Idempotent-Replayed')
    expect(response.status).toBe(202)
    expect(response.headers.get('idempotent-replayed')).toBe('true')
    expect(await response.json()).toEqual({ a: 1, added: true })
  })

  it('answers a replayed body as stored when there is nothing to upgrade', async () => {
    const response = await respond({ status: 201, body: { a: 1 }, replayed: true })
    expect(response.headers.get('idempotent-replayed')).toBe('true')
    expect(await response.json()).toEqual({ a: 1 })
  })
})

describe('pruneIdempotencyKeys()', () => {
  it('forgets a key older than 30 days and keeps one that is exactly 30 days old or younger', async () => {
    expect(IDEMPOTENCY_RETENTION_MS).toBe(30 * DAY)
    const userId = await caller()
    const now = t.clock.now()
    const ageOf = async (ageMs: number) => {
      const key = randomUUID()
      await idempotent(t.db, { ...request(userId, key), now: new Date(now.getTime() - ageMs) }, async () => ({
        status: 201,
        body: {},
      }))
      return key
    }
    const older = await ageOf(30 * DAY + 1)
    const exactly = await ageOf(30 * DAY)
    const younger = await ageOf(30 * DAY - 1)
    const fresh = await ageOf(0)
    await pruneIdempotencyKeys(t.db, now)
    expect(await storedRow(userId, older)).toBeUndefined()
    expect(await storedRow(userId, exactly)).toBeDefined()
    expect(await storedRow(userId, younger)).toBeDefined()
    expect(await storedRow(userId, fresh)).toBeDefined()
  })
})
