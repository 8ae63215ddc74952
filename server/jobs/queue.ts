import { randomUUID } from 'node:crypto'
import { and, eq, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm'
import type { Db } from '../db/client.ts'
import { jobs } from '../db/schema.ts'

export type NewJob = {
  kind: string
  payload: Record<string, unknown>
  runAt: Date
  /** The clock's now, stored as `created_at`. */
  now: Date
  organizationId?: string | null
  /** Enqueueing one key twice keeps the first job (see `jobs.dedupe_key`). */
  dedupeKey?: string
  maxAttempts?: number
}

/** Writes jobs in the caller's transaction: they exist exactly when the change that causes them commits. */
export async function enqueueJobs(tx: Db, list: NewJob[]): Promise<void> {
  if (list.length === 0) return
  await tx
    .insert(jobs)
    .values(
      list.map((job) => ({
        kind: job.kind,
        payload: job.payload,
        runAt: job.runAt,
        createdAt: job.now,
        organizationId: job.organizationId ?? null,
        dedupeKey: job.dedupeKey ?? null,
        ...(job.maxAttempts ? { maxAttempts: job.maxAttempts } : {}),
      })),
    )
    .onConflictDoNothing({ target: jobs.dedupeKey })
}

export type ClaimedJob = {
  id: string
  kind: string
  /** Read by the job's handler through its schema. */
  payload: unknown
  organizationId: string | null
  /** This attempt's number, from 1. */
  attempts: number
  maxAttempts: number
}

/** How long a claimed job stays with its process; past it (the process died), another may run it again. */
export const JOB_LEASE_MS = 5 * 60 * 1000

/** Which due jobs a claim may take: a lane's kinds, and organizations that already have their share running. */
export type ClaimScope = {
  /** Only these kinds (a lane of its own). */
  kinds?: readonly string[]
  /** Every kind but these (the lane of the rest). */
  exceptKinds?: readonly string[]
  /** Organizations (`null` for platform jobs) whose jobs this claim must not take: their share is running. */
  skipOrganizations?: readonly (string | null)[]
  /** At most this many jobs of one organization (platform jobs count as one organization). */
  perOrganization?: number
}

/** How many of the oldest due jobs a claim shares out in turns. */
const CLAIM_WINDOW = 100

/** `''` stands for platform jobs (no organization) where organizations are compared as text. */
const organizationKey = sql<string>`coalesce(${jobs.organizationId}::text, '')`

function scopeFilter(scope: ClaimScope) {
  const skip = scope.skipOrganizations ?? []
  return and(
    scope.kinds ? inArray(jobs.kind, [...scope.kinds]) : undefined,
    scope.exceptKinds?.length ? notInArray(jobs.kind, [...scope.exceptKinds]) : undefined,
    skip.length
      ? notInArray(
          organizationKey,
          skip.map((id) => id ?? ''),
        )
      : undefined,
  )
}

/**
 * Takes up to `limit` due jobs for `worker`: jobs not done, not failed, due by `now`, whose lease is free or
 * over, within `scope`, in turns: every organization's oldest due job, then every organization's second… (an
 * organization with a thousand jobs due waits its turn like the organization with one). `FOR UPDATE SKIP LOCKED` lets several
 * processes claim at once without waiting for or taking each other's rows; the claim counts an attempt, so a
 * job that kills its process still runs out of attempts.
 */
export async function claimJobs(
  db: Db,
  worker: string,
  now: Date,
  limit: number,
  scope: ClaimScope = {},
): Promise<ClaimedJob[]> {
  const leaseEnd = new Date(now.getTime() + JOB_LEASE_MS)
  const claimable = and(
    isNull(jobs.doneAt),
    isNull(jobs.failedAt),
    lte(jobs.runAt, now),
    or(isNull(jobs.lockedUntil), lte(jobs.lockedUntil, now)),
  )
  // The oldest due jobs of the organizations that may have more, then turns among those: an organization whose
  // share is running is skipped by the index scan, so a long backlog of one delays nobody else's jobs.
  const oldest = db
    .select({ id: jobs.id, runAt: jobs.runAt, organizationId: jobs.organizationId })
    .from(jobs)
    .where(and(claimable, scopeFilter(scope)))
    .orderBy(jobs.runAt, jobs.id)
    .limit(CLAIM_WINDOW)
    .as('oldest')
  const ranked = db
    .select({
      id: oldest.id,
      runAt: oldest.runAt,
      turn: sql<number>`row_number() over (partition by ${oldest.organizationId} order by ${oldest.runAt}, ${oldest.id})`.as(
        'turn',
      ),
    })
    .from(oldest)
    .as('ranked')
  const fairest = db
    .select({ id: ranked.id })
    .from(ranked)
    .where(scope.perOrganization ? lte(ranked.turn, scope.perOrganization) : undefined)
    .orderBy(ranked.turn, ranked.runAt, ranked.id)
    .limit(limit)
  // The window cannot take row locks: the rows it chose are locked here, each checked again once locked. The
  // ids go in as an array, so the lock reads them by primary key rather than joining every due row.
  const free = sql`(select ${jobs.id} from ${jobs} where ${jobs.id} = any(array(${fairest})) and ${claimable} for update skip locked)`
  return db
    .update(jobs)
    .set({ lockedBy: worker, lockedUntil: leaseEnd, attempts: sql`${jobs.attempts} + 1` })
    .where(inArray(jobs.id, free))
    .returning({
      id: jobs.id,
      kind: jobs.kind,
      payload: jobs.payload,
      organizationId: jobs.organizationId,
      attempts: jobs.attempts,
      maxAttempts: jobs.maxAttempts,
    })
}

/** Only the process holding the job's lease may settle it (a process whose lease ran out lost the job). */
const heldBy = (job: ClaimedJob, worker: string) => and(eq(jobs.id, job.id), eq(jobs.lockedBy, worker))

export async function markDone(db: Db, job: ClaimedJob, worker: string, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ doneAt: now, lockedBy: null, lockedUntil: null, lastError: null })
    .where(heldBy(job, worker))
}

/** 30 s after the first failure, doubling up to an hour: 12 attempts span about six hours. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 60 * 60 * 1000)
}

/** A failed attempt: retried later, or failed for good once its attempts are spent. */
export async function markFailed(db: Db, job: ClaimedJob, worker: string, now: Date, error: string) {
  const spent = job.attempts >= job.maxAttempts
  await db
    .update(jobs)
    .set({
      lockedBy: null,
      lockedUntil: null,
      lastError: error.slice(0, 500),
      ...(spent ? { failedAt: now } : { runAt: new Date(now.getTime() + retryDelayMs(job.attempts)) }),
    })
    .where(heldBy(job, worker))
  return spent
}

/** Not now (quiet hours…): the job runs at `runAt`, and this attempt does not count. */
export async function markDeferred(db: Db, job: ClaimedJob, worker: string, runAt: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ runAt, lockedBy: null, lockedUntil: null, attempts: sql`${jobs.attempts} - 1` })
    .where(heldBy(job, worker))
}

export const newWorkerId = () => `worker-${process.pid}-${randomUUID().slice(0, 8)}`

/** Done jobs are kept a week for investigating, failed ones a month; then dropped. */
const DONE_JOBS_KEPT_MS = 7 * 24 * 60 * 60 * 1000
const FAILED_JOBS_KEPT_MS = 30 * 24 * 60 * 60 * 1000

export async function pruneJobs(db: Db, now: Date): Promise<void> {
  await db
    .delete(jobs)
    .where(
      or(
        lt(jobs.doneAt, new Date(now.getTime() - DONE_JOBS_KEPT_MS)),
        lt(jobs.failedAt, new Date(now.getTime() - FAILED_JOBS_KEPT_MS)),
      ),
    )
}
