import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { DAY } from '../../tests/server/clock.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { idempotencyCalls } from '../../tests/server/idempotency.ts'
import { idempotencyKeys } from '../db/schema.ts'
import { idempotent, pruneIdempotencyKeys, requestHash } from './idempotency.ts'

const t = setupTestApp()
const { caller, request } = idempotencyCalls(t)

describe('idempotent()', () => {
  it('runs a slow effect once for concurrent twins, and both get its answer', async () => {
    const userId = await caller()
    const key = randomUUID()
    let runs = 0
    const effect = async () => {
      runs += 1
      await new Promise((resolve) => setTimeout(resolve, 150))
      return { status: 201 as const, body: { run: runs } }
    }
    const answers = await Promise.all([
      idempotent(t.db, request(userId, key), effect),
      idempotent(t.db, request(userId, key), effect),
    ])
    expect(runs).toBe(1)
    expect(answers.map((answer) => answer.body)).toEqual([{ run: 1 }, { run: 1 }])
    expect(answers.map((answer) => answer.replayed).sort()).toEqual([false, true])
  })

  it('stores nothing when the effect fails, so a retry with the same key runs it', async () => {
    const userId = await caller()
    const key = randomUUID()
    await expect(
      idempotent(t.db, request(userId, key), async () => {
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    const retry = await idempotent(t.db, request(userId, key), async () => ({
      status: 200,
      body: { ok: true },
    }))
    expect(retry).toEqual({ status: 200, body: { ok: true }, replayed: false })
  })

  it('refuses the key for another payload or another request (422), not for the same payload in any key order', async () => {
    const userId = await caller()
    const key = randomUUID()
    await idempotent(t.db, request(userId, key, { a: 1, b: 2 }), async () => ({ status: 201, body: {} }))
    const same = await idempotent(t.db, request(userId, key, { b: 2, a: 1 }), async () => ({
      status: 500,
      body: {},
    }))
    expect(same).toMatchObject({ status: 201, replayed: true })
    await expect(
      idempotent(t.db, request(userId, key, { a: 1, b: 3 }), async () => ({ status: 201, body: {} })),
    ).rejects.toMatchObject({ status: 422, code: 'idempotency_key_reused' })
    await expect(
      idempotent(t.db, { ...request(userId, key, { a: 1, b: 2 }), request: 'POST /api/other' }, async () => ({
        status: 201,
        body: {},
      })),
    ).rejects.toMatchObject({ status: 422 })
  })

  it('hashes canonically and forgets keys after 30 days', async () => {
    expect(requestHash('x', { a: 1, b: [1, { c: 2, d: 3 }] })).toBe(
      requestHash('x', { b: [1, { d: 3, c: 2 }], a: 1 }),
    )
    expect(requestHash('x', { a: 1 })).not.toBe(requestHash('y', { a: 1 }))
    const userId = await caller()
    await idempotent(t.db, request(userId, randomUUID()), async () => ({ status: 201, body: {} }))
    const before = (await t.db.select().from(idempotencyKeys)).length
    await pruneIdempotencyKeys(t.db, new Date(t.clock.now().getTime() + 31 * DAY))
    expect((await t.db.select().from(idempotencyKeys)).length).toBeLessThan(before)
  })
})
