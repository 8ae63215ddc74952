import type { AppDeps } from './deps.ts'
import { MAIL_JOB, sendMailJob } from './jobs/mail.ts'
import { createJobRunner, type JobRunner, MAIN_LANE } from './jobs/runner.ts'
import { noticeJobs } from './modules/notices/notices.ts'
import { pushJobs } from './modules/push/send.ts'
import { receiptJobs } from './modules/receipts/mail.ts'
import { scanJobs } from './modules/scans/ledger.ts'
import { stocktakeJobs } from './modules/stocktakes/notices.ts'
import { transferJobs } from './modules/transfers/reminders.ts'
import { webhookJobs, webhookLane } from './modules/webhooks/delivery-job.ts'

/**
 * Every kind of job this server runs, with what runs it: each module answers the handlers of its own kinds;
 * `server/jobs/` runs them and imports no module.
 */
export function createJobs(deps: Omit<AppDeps, 'jobs'>, worker?: string): JobRunner {
  return createJobRunner(
    deps,
    {
      [MAIL_JOB]: sendMailJob(deps.mailer),
      ...transferJobs(deps),
      ...noticeJobs(deps),
      ...pushJobs(deps),
      ...receiptJobs(deps),
      ...webhookJobs(deps),
      ...scanJobs(deps),
      ...stocktakeJobs(deps),
    },
    worker,
    [webhookLane(deps.config.webhookTimeoutMs), MAIN_LANE],
  )
}
