import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { MINUTE, SECOND, TEST_EPOCH, TestClock } from '../../tests/server/clock.ts'
import { openTestDatabaseTwice } from '../../tests/server/database.ts'
import type { Database } from '../db/client.ts'
import { jobs } from '../db/schema.ts'
import { createLogger } from '../logger.ts'
import {
  claimJobs,
  enqueueJobs,
  JOB_LEASE_MS,
  markDone,
  type NewJob,
  newWorkerId,
  pruneJobs,
} from './queue.ts'
import { createJobRunner, type JobHandler } from './runner.ts'

let database: Database
let other: Database
const clock = new TestClock()
const logger = createLogger('silent')

beforeAll(async () => {
  ;[database, other] = await openTestDatabaseTwice()
})
afterAll(async () => {
  await other.close()
  await database.close()
})
beforeEach(async () => {
  clock.set(TEST_EPOCH)
  await database.db.delete(jobs)
})

const job = (payload: Record<string, unknown>, extra: Partial<NewJob> = {}): NewJob => ({
  kind: 'test',
  payload,
  runAt: clock.now(),
  now: clock.now(),
  ...extra,
})

/** A runner whose `test` jobs record their payload's `n` (and fail while `failing` says so). */
function recordingRunner(db: Database = database, handler?: JobHandler) {
  const ran: number[] = []
  const runner = createJobRunner(
    { database: db, clock, logger },
    {
      test:
        handler ??
        (async (claimed) => {
          ran.push((claimed.payload as { n: number }).n)
          return undefined
        }),
    },
  )
  return { runner, ran }
}

const rowOf = async (n: number) => {
  const rows = await database.db.select().from(jobs)
  return rows.find((row) => (row.payload as { n: number }).n === n)!
}

describe('the job queue', () => {
  it('runs a job once it is due, once, and keeps it as done', async () => {
    await enqueueJobs(database.db, [
      job({ n: 1 }),
      job({ n: 2 }, { runAt: new Date(clock.now().getTime() + MINUTE) }),
    ])
    const { runner, ran } = recordingRunner()
    expect(await runner.drain()).toBe(1)
    expect(ran).toEqual([1])
    expect(await runner.drain()).toBe(0)
    clock.advance(MINUTE)
    expect(await runner.drain()).toBe(1)
    expect(ran).toEqual([1, 2])
    expect((await rowOf(1)).doneAt).toEqual(TEST_EPOCH)
    expect((await rowOf(2)).attempts).toBe(1)
  })

  it('writes jobs with the transaction that causes them: none when it rolls back', async () => {
    await database.db
      .transaction(async (tx) => {
        await enqueueJobs(tx, [job({ n: 1 })])
        throw new Error('the change fails')
      })
      .catch(() => undefined)
    expect(await database.db.select().from(jobs)).toEqual([])
  })

  it('keeps one job per dedupe key', async () => {
    await enqueueJobs(database.db, [job({ n: 1 }, { dedupeKey: 'k' })])
    await enqueueJobs(database.db, [job({ n: 2 }, { dedupeKey: 'k' }), job({ n: 3 }, { dedupeKey: 'j' })])
    const { runner, ran } = recordingRunner()
    await runner.drain()
    expect(ran.sort()).toEqual([1, 3])
  })

  it('retries a failing job after 30 s, then 60 s…, and gives up after its last attempt', async () => {
    await enqueueJobs(database.db, [job({ n: 1 }, { maxAttempts: 3 })])
    let calls = 0
    const { runner } = recordingRunner(database, async () => {
      calls += 1
      throw new Error('refused')
    })
    await runner.drain()
    expect(calls).toBe(1)
    const first = await rowOf(1)
    expect(first.runAt).toEqual(new Date(TEST_EPOCH.getTime() + 30 * SECOND))
    expect(first.lastError).toBe('refused')
    clock.advance(29 * SECOND)
    await runner.drain()
    expect(calls).toBe(1)
    clock.advance(SECOND)
    await runner.drain()
    expect(calls).toBe(2)
    expect((await rowOf(1)).runAt).toEqual(new Date(clock.now().getTime() + 60 * SECOND))
    clock.advance(60 * SECOND)
    await runner.drain()
    expect(calls).toBe(3)
    expect((await rowOf(1)).failedAt).toEqual(clock.now())
    clock.advance(24 * 60 * MINUTE)
    await runner.drain()
    expect(calls).toBe(3)
  })

  it('defers a job without spending an attempt', async () => {
    await enqueueJobs(database.db, [job({ n: 1 }, { maxAttempts: 1 })])
    const later = new Date(TEST_EPOCH.getTime() + 10 * MINUTE)
    let calls = 0
    const { runner } = recordingRunner(database, async () => {
      calls += 1
      return calls === 1 ? { deferUntil: later } : undefined
    })
    await runner.drain()
    expect(await rowOf(1)).toMatchObject({ runAt: later, attempts: 0, doneAt: null })
    clock.set(later)
    await runner.drain()
    expect(calls).toBe(2)
    expect((await rowOf(1)).doneAt).toEqual(later)
  })

  it('gives a job whose process died to another once its lease is over; the dead one cannot settle it', async () => {
    await enqueueJobs(database.db, [job({ n: 1 })])
    const [claimed] = await claimJobs(database.db, 'dead-worker', clock.now(), 10)
    const { runner, ran } = recordingRunner()
    expect(await runner.drain()).toBe(0)
    expect(JOB_LEASE_MS).toBe(5 * MINUTE)
    clock.advance(5 * MINUTE - SECOND)
    expect(await runner.drain()).toBe(0)
    clock.advance(SECOND)
    expect(await runner.drain()).toBe(1)
    expect(ran).toEqual([1])
    expect((await rowOf(1)).attempts).toBe(2)
    const doneAt = (await rowOf(1)).doneAt
    await markDone(database.db, claimed!, 'dead-worker', new Date(clock.now().getTime() + MINUTE))
    expect((await rowOf(1)).doneAt).toEqual(doneAt)
  })

  it('runs each job once when two processes drain one database at the same time', async () => {
    const count = 60
    await enqueueJobs(
      database.db,
      Array.from({ length: count }, (_, n) => job({ n })),
    )
    const slow: JobHandler = async () => {
      await new Promise((resolve) => setTimeout(resolve, 2))
      return undefined
    }
    const runs = new Map<string, number>()
    const counting =
      (inner: JobHandler): JobHandler =>
      async (claimed) => {
        runs.set(claimed.id, (runs.get(claimed.id) ?? 0) + 1)
        return inner(claimed)
      }
    const a = createJobRunner({ database, clock, logger }, { test: counting(slow) }, 'a')
    const b = createJobRunner({ database: other, clock, logger }, { test: counting(slow) }, 'b')
    const [byA, byB] = await Promise.all([a.drain(), b.drain()])
    expect(byA + byB).toBe(count)
    expect(runs.size).toBe(count)
    expect([...runs.values()].every((times) => times === 1)).toBe(true)
    const done = await database.db.select().from(jobs).where(eq(jobs.attempts, 1))
    expect(done.every((row) => row.doneAt !== null)).toBe(true)
    expect(done).toHaveLength(count)
  })

  it.runIf(process.env.TEST_DATABASE_URL)(
    'lets a second process claim other jobs at once while a first holds its claim uncommitted',
    async () => {
      await enqueueJobs(
        database.db,
        Array.from({ length: 6 }, (_, n) => job({ n })),
      )
      const mine = await database.db.transaction(async (tx) => {
        const first = await claimJobs(tx, 'a', clock.now(), 4)
        // B neither waits for A's rows nor takes them: with a plain FOR UPDATE it would wait here for ever.
        const second = await claimJobs(other.db, 'b', clock.now(), 10)
        return { first, second }
      })
      expect(mine.first).toHaveLength(4)
      expect(mine.second).toHaveLength(2)
      const ids = new Set([...mine.first, ...mine.second].map((each) => each.id))
      expect(ids.size).toBe(6)
    },
    10_000,
  )

  it('drops done jobs after a week and failed ones after a month, never a job still to run', async () => {
    const day = 24 * 60 * MINUTE
    await enqueueJobs(database.db, [job({ n: 1 }), job({ n: 2 }), job({ n: 3 }), job({ n: 4 })])
    await database.db
      .update(jobs)
      .set({ doneAt: new Date(TEST_EPOCH.getTime() - 7 * day - 1) })
      .where(eq(jobs.payload, { n: 1 }))
    await database.db
      .update(jobs)
      .set({ doneAt: new Date(TEST_EPOCH.getTime() - 6 * day) })
      .where(eq(jobs.payload, { n: 2 }))
    await database.db
      .update(jobs)
      .set({ failedAt: new Date(TEST_EPOCH.getTime() - 29 * day) })
      .where(eq(jobs.payload, { n: 3 }))
    await pruneJobs(database.db, clock.now())
    const left = (await database.db.select().from(jobs)).map((row) => (row.payload as { n: number }).n).sort()
    expect(left).toEqual([2, 3, 4])
  })

  it('fails a job of a kind no handler knows, and logs its id and kind only', async () => {
    await enqueueJobs(database.db, [job({ n: 1 }, { kind: 'nobody', maxAttempts: 1 })])
    const { runner } = recordingRunner()
    await runner.drain()
    expect((await rowOf(1)).failedAt).toEqual(TEST_EPOCH)
    expect((await rowOf(1)).lastError).toBe('No handler for jobs of kind nobody')
  })

  it('writes nothing for an empty list of jobs', async () => {
    await enqueueJobs(database.db, [])
    expect(await database.db.select().from(jobs)).toEqual([])
  })

  it("keeps the first 500 characters of a failure's message", async () => {
    await enqueueJobs(database.db, [job({ n: 1 }, { maxAttempts: 1 })])
    const { runner } = recordingRunner(database, async () => {
      throw new Error(`${'a'.repeat(500)}b`)
    })
    await runner.drain()
    expect((await rowOf(1)).lastError).toBe('a'.repeat(500))
  })

  it('names a worker after its process and a random part, and stores the name on the jobs it holds', async () => {
    const worker = newWorkerId()
    expect(worker).toMatch(new RegExp(`^worker-${process.pid}-[0-9a-f]{8}$`))
    expect(newWorkerId()).not.toBe(worker)
    await enqueueJobs(database.db, [job({ n: 1 })])
    await claimJobs(database.db, worker, clock.now(), 10)
    expect(await rowOf(1)).toMatchObject({
      lockedBy: worker,
      lockedUntil: new Date(TEST_EPOCH.getTime() + 5 * MINUTE),
    })
  })
})
