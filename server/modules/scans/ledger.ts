import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { oncePerDatabase } from '../../db/prepared.ts'
import { jobs } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'

/**
 * A resolved scan is a `scan.recorded` entry of its tag's organization's ledger, appended a moment after the
 * scan (docs/decisions.md, "Scans join the ledger in batches"): the scan's statement marks it pending
 * (`scans.ledger_organization_id`), and this job appends every pending scan of one organization, in batches
 * under one lock of its counter row each, clearing their marks in the same transaction (migration 0019).
 */
export const SCAN_LEDGER_JOB = 'scans.ledger'

/** Scans appended per transaction: one lock of the counter row, held for the batch's commit. */
export const SCAN_LEDGER_BATCH = 500

const statements = oncePerDatabase((db) => ({
  append: db
    .select({
      appended: sql<number>`append_pending_scans(${sql.placeholder('organizationId')}::uuid, ${sql.placeholder('batch')}::integer)`,
    })
    .from(sql`(select) as one`)
    .prepare('scan_ledger_append'),
  // A job to come, unless one not yet begun is there: it will read the pending scans after this scan's
  // commit, since it begins later (its claim commits after this statement's snapshot, or this statement
  // would have seen it begun). Two wakes at once may both add one: the second then finds nothing to append.
  wake: db
    .with(
      db.$with('woken', { one: sql<number>`1` }).as(
        sql`insert into ${jobs} (kind, payload, organization_id, run_at, created_at)
        select ${SCAN_LEDGER_JOB}, jsonb_build_object('organizationId', ${sql.placeholder('organizationId')}::uuid),
          ${sql.placeholder('organizationId')}::uuid, ${sql.placeholder('now')}::timestamptz,
          ${sql.placeholder('now')}::timestamptz
        where not exists (select from ${jobs} where ${jobs.kind} = ${SCAN_LEDGER_JOB}
          and ${jobs.organizationId} = ${sql.placeholder('organizationId')}::uuid
          and ${jobs.doneAt} is null and ${jobs.failedAt} is null and ${jobs.lockedBy} is null
          and ${jobs.attempts} = 0)
        returning 1`,
      ),
    )
    .select({ woken: sql<number>`count(*)::int` })
    .from(sql`woken`)
    .prepare('scan_ledger_wake'),
}))

/** Appends every scan of the organization waiting for its ledger, oldest first; resolves with how many. */
export async function appendPendingScans(db: Db, organizationId: string): Promise<number> {
  let total = 0
  for (;;) {
    const [row] = await statements(db).append.execute({ organizationId, batch: SCAN_LEDGER_BATCH })
    const appended = Number(row?.appended ?? 0)
    total += appended
    if (appended < SCAN_LEDGER_BATCH) return total
  }
}

/**
 * After a scan marked pending has committed (never inside its statement: a job begun meanwhile would not see
 * it): makes sure a job appends it, then asks the runner to run it soon.
 */
export async function wakeScanLedger(
  deps: Pick<AppDeps, 'database' | 'jobs'>,
  organizationId: string,
  now: Date,
): Promise<void> {
  await statements(deps.database.db).wake.execute({ organizationId, now: now.toISOString() })
  deps.jobs.nudge()
}

function scanLedgerHandler(deps: Pick<AppDeps, 'database'>): JobHandler {
  return async (job) => {
    if (job.organizationId) await appendPendingScans(deps.database.db, job.organizationId)
    return undefined
  }
}

/** The jobs this module runs, for the server to register (`server/job-handlers.ts`). */
export function scanJobs(deps: Pick<AppDeps, 'database'>): JobHandlers {
  return { [SCAN_LEDGER_JOB]: scanLedgerHandler(deps) }
}
