// Scans join the ledger in batches (issue 14): the scan's statement marks it pending, the scan ledger's job
// appends every pending scan of the organization under one lock of its counter row, clearing the marks in the
// same transaction. Here the requests do not run the jobs: the tests run them, or race the appends directly.
import { randomUUID } from 'node:crypto'
import { and, asc, eq, isNotNull } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { jobs, organizationEvents, scans } from '../../db/schema.ts'
import { claimJobs } from '../../jobs/queue.ts'
import { verifyChain } from '../activity/chain.ts'
import { appendEvent } from '../events/append.ts'
import { appendPendingScans, SCAN_LEDGER_BATCH, SCAN_LEDGER_JOB } from './ledger.ts'

const t = setupTestApp({ runJobsAfterRequests: false })

async function world() {
  const { organization, admin } = await organizationWithAdmin(t, 'Agence')
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const [tagged] = await makeTags(t, organization.id, 1, 'BAT')
  const keychain = await makeKeychain(t, organization.id, 'Cave', member.id)
  await t.post(`/api/keychains/${keychain.id}/keys`, {
    cookie: admin.cookie,
    json: { type: 'TAG', name: 'Porte', tagId: tagged!.id },
  })
  return { organization, admin, member, tag: tagged!, keychain }
}

const scan = (cookie: string, value: string, key: string = randomUUID()) =>
  t.post('/api/scans', { cookie, json: { value }, headers: { 'idempotency-key': key } })

const logged = (organizationId: string) =>
  t.db
    .select({ seq: organizationEvents.seq, payload: organizationEvents.payload })
    .from(organizationEvents)
    .where(
      and(
        eq(organizationEvents.organizationId, organizationId),
        eq(organizationEvents.kind, 'scan.recorded'),
      ),
    )
    .orderBy(asc(organizationEvents.seq))

const pending = (organizationId: string) =>
  t.db.select({ id: scans.id }).from(scans).where(eq(scans.ledgerOrganizationId, organizationId))

const ledgerJobs = (organizationId: string) =>
  t.db
    .select({ id: jobs.id, doneAt: jobs.doneAt })
    .from(jobs)
    .where(and(eq(jobs.kind, SCAN_LEDGER_JOB), eq(jobs.organizationId, organizationId)))

/** `count` pending scans of the tag, a second apart from `start`, written straight into the table. */
async function pendingScans(
  input: { organizationId: string; userId: string; tagId: string; keychainId: string },
  count: number,
  start = Date.UTC(2030, 0, 15),
) {
  const rows = Array.from({ length: count }, (_, n) => ({
    id: randomUUID(),
    userId: input.userId,
    organizationId: input.organizationId,
    value: 'BAT-1',
    result: 'resolved' as const,
    tagId: input.tagId,
    serverTime: new Date(start + n * 1000),
    ledgerOrganizationId: input.organizationId,
    ledgerKeychainId: input.keychainId,
  }))
  for (let from = 0; from < rows.length; from += 500)
    await t.db.insert(scans).values(rows.slice(from, from + 500))
  return rows.map((row) => row.id)
}

describe('a scan waiting for the ledger', () => {
  it('is marked pending with one job to come, appended once when the job runs, and never again', async () => {
    const { organization, member, tag, keychain } = await world()
    const first = await (await scan(member.cookie, tag.code)).json()
    t.clock.advance(1000)
    const second = await (await scan(member.cookie, tag.publicId)).json()
    expect(await logged(organization.id)).toEqual([])
    expect((await pending(organization.id)).map((row) => row.id).sort()).toEqual(
      [first.scanId, second.scanId].sort(),
    )
    const [row] = await t.db.select().from(scans).where(eq(scans.id, first.scanId))
    expect(row).toMatchObject({ ledgerOrganizationId: organization.id, ledgerKeychainId: keychain.id })
    // The second scan found the first one's job not begun: one job appends both.
    expect(await ledgerJobs(organization.id)).toHaveLength(1)

    await t.runJobs()
    expect((await logged(organization.id)).map((entry) => entry.payload)).toEqual([
      { scanId: first.scanId },
      { scanId: second.scanId },
    ])
    expect(await pending(organization.id)).toEqual([])
    const [cleared] = await t.db.select().from(scans).where(eq(scans.id, first.scanId))
    expect(cleared).toMatchObject({ ledgerOrganizationId: null, ledgerKeychainId: null })
    expect(await verifyChain(t.db, organization.id)).toMatchObject({ valid: true, brokenAt: null })

    // A replay wakes the job again (its first answer's process may have stopped before its wake), and the
    // scan is not appended twice.
    const replayKey = randomUUID()
    await scan(member.cookie, tag.code, replayKey)
    await t.runJobs()
    expect(await appendPendingScans(t.db, organization.id)).toBe(0)
    const replay = await scan(member.cookie, tag.code, replayKey)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect((await ledgerJobs(organization.id)).filter((job) => job.doneAt === null)).toHaveLength(1)
    await t.runJobs()
    expect(await logged(organization.id)).toHaveLength(3)
  })

  it('gets a job of its own when the one there has begun: that one may have read the pending scans already', async () => {
    const { organization, member, tag } = await world()
    await scan(member.cookie, tag.code)
    const claimed = await claimJobs(t.db, 'elsewhere', t.clock.now(), 10)
    expect(claimed.map((job) => job.kind)).toEqual([SCAN_LEDGER_JOB])
    await appendPendingScans(t.db, organization.id) // the other process's job, before the next scan commits
    const late = await (await scan(member.cookie, tag.code)).json()
    expect(await ledgerJobs(organization.id)).toHaveLength(2)
    await t.runJobs() // this process runs the new job; the claimed one stays the other process's
    expect((await logged(organization.id)).map((entry) => entry.payload)).toContainEqual({
      scanId: late.scanId,
    })
    expect(await logged(organization.id)).toHaveLength(2)
  })

  it('is not marked for an unknown value: no job either', async () => {
    const { organization, member } = await world()
    expect((await (await scan(member.cookie, 'nothing-here')).json()).status).toBe('unknown')
    expect(await ledgerJobs(organization.id)).toEqual([])
    expect(
      await t.db.select({ id: scans.id }).from(scans).where(isNotNull(scans.ledgerOrganizationId)),
    ).toEqual([])
  })
})

describe('appending pending scans', () => {
  it('appends them all in batches, oldest first, numbered on from the last entry and chained', async () => {
    const { organization, admin, member, tag, keychain } = await world()
    await appendEvent(t.db, {
      organizationId: organization.id,
      kind: 'keychain.updated',
      actorId: admin.profile.id,
      serverTime: t.clock.now(),
    })
    const before = await t.db.$count(
      organizationEvents,
      eq(organizationEvents.organizationId, organization.id),
    )
    const input = {
      organizationId: organization.id,
      userId: member.id,
      tagId: tag.id,
      keychainId: keychain.id,
    }
    // Written newest first: the order of the ledger is the scans' server time, not the rows'.
    const count = SCAN_LEDGER_BATCH * 2 + 7
    const ids = (await pendingScans(input, count)).reverse()
    expect(await appendPendingScans(t.db, organization.id)).toBe(count)
    const entries = await logged(organization.id)
    expect(entries.map((entry) => (entry.payload as { scanId: string }).scanId)).toEqual(ids.reverse())
    expect(entries.map((entry) => Number(entry.seq))).toEqual(
      Array.from({ length: count }, (_, n) => before + 1 + n),
    )
    expect(await pending(organization.id)).toEqual([])
    expect(await verifyChain(t.db, organization.id)).toEqual({
      entries: before + count,
      valid: true,
      brokenAt: null,
    })
  })
})

describe.runIf(process.env.TEST_DATABASE_URL)('appends racing on PostgreSQL', () => {
  it('never lose nor repeat a scan, and the chain verifies', async () => {
    const { organization, admin, member, tag, keychain } = await world()
    const input = {
      organizationId: organization.id,
      userId: member.id,
      tagId: tag.id,
      keychainId: keychain.id,
    }
    {
      const written: string[] = []
      // Scans keep coming while four appenders (each on a connection of the pool) and other entries race.
      const writers = (async () => {
        for (let round = 0; round < 20; round += 1)
          written.push(...(await pendingScans(input, 37, round * 60_000)))
      })()
      const others = (async () => {
        for (let n = 0; n < 30; n += 1)
          await appendEvent(t.db, {
            organizationId: organization.id,
            kind: 'keychain.updated',
            actorId: admin.profile.id,
            serverTime: t.clock.now(),
            payload: { n },
          })
      })()
      let stop = false
      const appender = async (db: typeof t.db) => {
        let total = 0
        while (!stop) total += await appendPendingScans(db, organization.id)
        return total
      }
      const appenders = Promise.all([appender(t.db), appender(t.db), appender(t.db), appender(t.db)])
      await Promise.all([writers, others])
      stop = true
      const appended = (await appenders).reduce((sum, n) => sum + n, 0)
      const rest = await appendPendingScans(t.db, organization.id)
      expect(appended + rest).toBe(written.length)
      const entries = await logged(organization.id)
      const scanIds = entries.map((entry) => (entry.payload as { scanId: string }).scanId)
      expect(new Set(scanIds).size).toBe(scanIds.length)
      expect([...scanIds].sort()).toEqual([...written].sort())
      expect(await verifyChain(t.db, organization.id)).toMatchObject({ valid: true, brokenAt: null })
    }
  })
})
