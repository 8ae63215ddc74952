import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { TEST_EPOCH, TestClock } from '../../tests/server/clock.ts'
import { openTestDatabase } from '../../tests/server/database.ts'
import type { Database } from '../db/client.ts'
import { jobs, organizations } from '../db/schema.ts'
import { createLogger } from '../logger.ts'
import type { JobLane } from './lane.ts'
import { claimJobs, enqueueJobs, type NewJob } from './queue.ts'
import { createJobRunner, type JobHandler } from './runner.ts'

let database: Database
const clock = new TestClock()
const logger = createLogger('silent')

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

async function organization(name: string): Promise<string> {
  const [row] = await database.db
    .insert(organizations)
    .values({
      name,
      addressLine1: '1 rue',
      city: 'Paris',
      postalCode: '75001',
      country: 'FR',
      createdAt: clock.now(),
    })
    .returning({ id: organizations.id })
  return row!.id
}

const job = (kind: string, organizationId: string | null, n: number, runAt = clock.now()): NewJob => ({
  kind,
  payload: { n },
  runAt,
  now: clock.now(),
  organizationId,
})

const SECOND = 1000
const never = () => new Promise<never>(() => {})

/** Two lanes as the server has them, with a short timeout so that the hung jobs of the test end. */
const LANES: JobLane[] = [
  { name: 'webhooks', kinds: ['hook'], slots: 4, perOrganization: 2, timeoutMs: 5 * SECOND },
  { name: 'jobs', slots: 3, perOrganization: 1, timeoutMs: 5 * SECOND },
]

describe('claiming in turns', () => {
  it('takes every organization’s oldest job before anyone’s second, and at most `perOrganization` of one', async () => {
    const [a, b] = [await organization('A'), await organization('B')]
    const older = new Date(clock.now().getTime() - 60 * SECOND)
    await enqueueJobs(database.db, [
      ...Array.from({ length: 30 }, (_, n) => job('mail', a, n, older)),
      job('mail', b, 100),
    ])
    const claimed = await claimJobs(database.db, 'w', clock.now(), 2, { perOrganization: 1 })
    expect(claimed.map((row) => row.organizationId).sort()).toEqual([a, b].sort())
    const more = await claimJobs(database.db, 'w', clock.now(), 10, { perOrganization: 1 })
    expect(more.map((row) => row.organizationId)).toEqual([a])
  })

  it('leaves out the organizations it is told to skip, platform jobs included, and keeps to its lane', async () => {
    const a = await organization('A')
    await enqueueJobs(database.db, [job('mail', a, 1), job('mail', null, 2), job('hook', null, 3)])
    expect(
      await claimJobs(database.db, 'w', clock.now(), 10, {
        exceptKinds: ['hook'],
        skipOrganizations: [a, null],
      }),
    ).toEqual([])
    const platform = await claimJobs(database.db, 'w', clock.now(), 10, {
      exceptKinds: ['hook'],
      skipOrganizations: [a],
    })
    expect(platform.map((row) => row.payload)).toEqual([{ n: 2 }])
    const hooks = await claimJobs(database.db, 'w', clock.now(), 10, { kinds: ['hook'] })
    expect(hooks.map((row) => row.payload)).toEqual([{ n: 3 }])
  })
})

describe('a tenant whose every job hangs', () => {
  it('does not delay another organization’s mail beyond 2 s, in either lane, and its jobs time out', async () => {
    const [slow, other] = [await organization('Slow'), await organization('Other')]
    const older = new Date(clock.now().getTime() - 60 * SECOND)
    // Everything the slow organization has is due first and hangs: webhooks and mails alike.
    await enqueueJobs(database.db, [
      ...Array.from({ length: 12 }, (_, n) => job('hook', slow, n, older)),
      ...Array.from({ length: 12 }, (_, n) => job('mail', slow, 100 + n, older)),
    ])
    const ranAt = new Map<number, number>()
    const handler: JobHandler = async (claimed) => {
      if (claimed.organizationId === slow) return never()
      ranAt.set((claimed.payload as { n: number }).n, Date.now())
      return undefined
    }
    const runner = createJobRunner({ database, clock, logger }, { hook: handler, mail: handler }, 'w', LANES)
    const hanging = runner.drain()
    // The slow organization's jobs hold what they may of both lanes; then the other organization's arrive.
    await new Promise((resolve) => setTimeout(resolve, 300))
    await enqueueJobs(database.db, [job('mail', other, 1), job('hook', other, 2)])
    const enqueuedAt = Date.now()
    runner.nudge()
    await expect.poll(() => ranAt.size, { timeout: 2 * SECOND, interval: 20 }).toBe(2)
    expect(ranAt.get(1)! - enqueuedAt).toBeLessThan(2 * SECOND)
    expect(ranAt.get(2)! - enqueuedAt).toBeLessThan(2 * SECOND)
    await runner.stop()
    await hanging
    // The hung attempts were cut at the lane's timeout and wait for their retry; none is still held.
    const slowJobs = (await database.db.select().from(jobs)).filter((row) => row.organizationId === slow)
    const attempted = slowJobs.filter((row) => row.attempts > 0)
    expect(attempted.length).toBeGreaterThan(0)
    for (const row of attempted) {
      expect(row).toMatchObject({
        lockedBy: null,
        doneAt: null,
        lastError: 'the attempt ran for more than 5000 ms',
      })
    }
    // Its share: at most two webhooks and one mail at a time, so at most three attempts before the stop.
    expect(attempted.filter((row) => row.kind === 'hook').length).toBeLessThanOrEqual(2)
    expect(attempted.filter((row) => row.kind === 'mail').length).toBeLessThanOrEqual(1)
  }, 30_000)
})
