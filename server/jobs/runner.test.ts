import { Writable } from 'node:stream'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { HOUR, MINUTE, SECOND, TEST_EPOCH, TestClock } from '../../tests/server/clock.ts'
import { openTestDatabase } from '../../tests/server/database.ts'
import type { Database } from '../db/client.ts'
import { jobs } from '../db/schema.ts'
import { createLogger } from '../logger.ts'
import { enqueueJobs, type NewJob } from './queue.ts'
import { createJobRunner, type JobHandler } from './runner.ts'

let database: Database
const clock = new TestClock()

beforeAll(async () => {
  database = await openTestDatabase()
})
afterAll(async () => {
  await database.close()
})
beforeEach(async () => {
  clock.set(TEST_EPOCH)
  await database.db.delete(jobs)
})
afterEach(() => {
  vi.restoreAllMocks()
  vi.useRealTimers()
})

const job = (n: number, extra: Partial<NewJob> = {}): NewJob => ({
  kind: 'test',
  payload: { n },
  runAt: clock.now(),
  now: clock.now(),
  ...extra,
})

/** The runner's log lines, parsed. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)))
      done()
    },
  })
  return { lines, logger: createLogger('info', stream) }
}

/** A runner whose `test` jobs record their `n`; `seen(n)` resolves once job `n` has run. */
function recordingRunner(db: Database = database, handler?: JobHandler) {
  const ran: number[] = []
  const waiting = new Map<number, () => void>()
  const { lines, logger } = capturingLogger()
  const runner = createJobRunner(
    { database: db, clock, logger },
    {
      test:
        handler ??
        (async (claimed) => {
          const n = (claimed.payload as { n: number }).n
          ran.push(n)
          waiting.get(n)?.()
          return undefined
        }),
    },
  )
  const seen = (n: number) =>
    ran.includes(n) ? Promise.resolve() : new Promise<void>((resolve) => waiting.set(n, resolve))
  return { runner, ran, seen, lines }
}

const rows = async () => database.db.select().from(jobs)

describe('the job runner', () => {
  it('drains at once on start, adds no second timer on a second start, and keeps no process alive by its timer', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const setInterval = vi.spyOn(globalThis, 'setInterval')
    await enqueueJobs(database.db, [job(1)])
    const { runner, ran } = recordingRunner()
    runner.start(MINUTE)
    runner.start(MINUTE)
    expect(vi.getTimerCount()).toBe(1)
    expect(setInterval).toHaveBeenCalledTimes(1)
    expect(setInterval.mock.calls[0]?.[1]).toBe(MINUTE)
    const timer = setInterval.mock.results[0]?.value as { hasRef(): boolean } | undefined
    expect(timer?.hasRef()).toBe(false)
    // Stopping ends the polling and waits for the drain under way: the one the start began.
    await runner.stop()
    expect(vi.getTimerCount()).toBe(0)
    expect(ran).toEqual([1])
    expect((await rows())[0]?.doneAt).toEqual(TEST_EPOCH)
  })

  it('drains again every pollMs, not before', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const { runner, ran } = recordingRunner()
    runner.start(MINUTE)
    await runner.drain()
    await enqueueJobs(database.db, [job(1)])
    vi.advanceTimersByTime(MINUTE - 1)
    await runner.stop()
    expect(ran).toEqual([])

    runner.start(MINUTE)
    await runner.drain()
    await enqueueJobs(database.db, [job(2)])
    vi.advanceTimersByTime(MINUTE)
    // The interval's drain is under way (job 1 was run by the start's); stop waits for it.
    await runner.stop()
    expect(ran).toEqual([1, 2])
  })

  it('stops at once when it never started', async () => {
    const { runner } = recordingRunner()
    await runner.stop()
    expect(await runner.drain()).toBe(0)
  })

  it('drains on the next turn of the event loop after a nudge', async () => {
    await enqueueJobs(database.db, [job(1)])
    const { runner, ran } = recordingRunner()
    runner.nudge()
    // Once the nudge's turn has come, its drain is under way: stop waits for it.
    await new Promise((resolve) => setImmediate(resolve))
    await runner.stop()
    expect(ran).toEqual([1])
  })

  it('starts no drain for a nudge after stop (a request finishing during a shutdown)', async () => {
    await enqueueJobs(database.db, [job(1)])
    const { runner, ran } = recordingRunner()
    await runner.stop()
    runner.nudge()
    await new Promise((resolve) => setImmediate(resolve))
    await runner.stop()
    expect(ran).toEqual([])
    // Started again, it drains as before.
    runner.start(MINUTE)
    await runner.stop()
    expect(ran).toEqual([1])
  })

  it('claims nothing more once stopped, and finishes the job it runs', async () => {
    await enqueueJobs(
      database.db,
      Array.from({ length: 11 }, (_, index) => job(index + 1)),
    )
    const ran: number[] = []
    let stopping: Promise<void> | undefined
    const runner = createJobRunner(
      { database, clock, logger: capturingLogger().logger },
      {
        test: async (claimed) => {
          ran.push((claimed.payload as { n: number }).n)
          stopping ??= runner.stop()
          return undefined
        },
      },
    )
    expect(await runner.drain()).toBe(1)
    await stopping
    expect(ran).toHaveLength(1)
    expect((await rows()).filter((row) => row.doneAt)).toHaveLength(1)
  })

  it('joins a drain asked for while one runs', async () => {
    await enqueueJobs(database.db, [job(1), job(2)])
    const { runner, ran } = recordingRunner()
    const first = runner.drain()
    const second = runner.drain()
    expect(second).toBe(first)
    expect(await second).toBe(2)
    expect(ran.sort()).toEqual([1, 2])
  })

  it('logs a drain that fails (its database gone) with the error label only', async () => {
    const gone = await openTestDatabase()
    await gone.close()
    const { runner, lines } = recordingRunner(gone)
    runner.nudge()
    await new Promise((resolve) => setImmediate(resolve))
    await runner.stop()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({ level: 50, msg: 'job drain failed' })
    expect(typeof lines[0]?.error).toBe('string')
    expect(lines[0]?.error).not.toBe('')
  })

  it('logs a failure to retry as a warning and the last as an error, with ids, kind, attempt and error code', async () => {
    await enqueueJobs(database.db, [job(1, { maxAttempts: 2 })])
    const refusal = Object.assign(new Error('550 <someone@example.test> refused'), { code: 'EENVELOPE' })
    const { runner, lines } = recordingRunner(database, async () => {
      throw refusal
    })
    await runner.drain()
    const [row] = await rows()
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'job failed, retried later',
        jobId: row?.id,
        kind: 'test',
        attempts: 1,
        error: 'EENVELOPE',
      }),
    ])
    clock.advance(30 * SECOND)
    await runner.drain()
    expect(lines).toHaveLength(2)
    expect(lines[1]).toMatchObject({
      level: 50,
      msg: 'job failed for good',
      jobId: row?.id,
      kind: 'test',
      attempts: 2,
      error: 'EENVELOPE',
    })
    expect(JSON.stringify(lines)).not.toContain('example.test')
  })

  it("labels an error without a code by its name, and anything else thrown as 'unknown'", async () => {
    await enqueueJobs(database.db, [job(1, { maxAttempts: 1 }), job(2, { maxAttempts: 1 })])
    const { runner, lines } = recordingRunner(database, async (claimed) => {
      if ((claimed.payload as { n: number }).n === 1) throw new TypeError('bad payload')
      throw 'a string'
    })
    await runner.drain()
    expect(lines.map((line) => line.error).sort()).toEqual(['TypeError', 'unknown'])
    const errors = (await rows()).map((row) => row.lastError).sort()
    expect(errors).toEqual(['a string', 'bad payload'])
  })

  it('defers a job asked to wait until now or earlier by one minute', async () => {
    await enqueueJobs(database.db, [job(1)])
    const { runner } = recordingRunner(database, async () => ({
      deferUntil: new Date(clock.now().getTime() - HOUR),
    }))
    expect(await runner.drain()).toBe(1)
    const [row] = await rows()
    expect(row).toMatchObject({ runAt: new Date(TEST_EPOCH.getTime() + MINUTE), attempts: 0, doneAt: null })
  })
})
