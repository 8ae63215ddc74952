import type { AppDeps } from '../deps.ts'
import { NOTICE_JOB } from '../modules/notices/job.ts'
import { noticeHandler } from '../modules/notices/notices.ts'
import { RECEIPT_MAIL_JOB, receiptMailHandler } from '../modules/receipts/mail.ts'
import { SCAN_LEDGER_JOB, scanLedgerHandler } from '../modules/scans/ledger.ts'
import { REMINDER_JOB, reminderHandler } from '../modules/transfers/reminders.ts'
import { webhookDeliveryHandler } from '../modules/webhooks/delivery-job.ts'
import { WEBHOOK_JOB } from '../modules/webhooks/enqueue.ts'
import type { JobLane } from './lane.ts'
import { MAIL_JOB, sendMailJob } from './mail.ts'
import { createJobRunner, type JobRunner, MAIN_LANE } from './runner.ts'

/**
 * Webhook deliveries wait on servers each organization chooses, however slow: they have a lane of their own, so
 * mail, reminders and notices never wait behind them; in each lane one organization has a bounded share, so an
 * organization whose jobs hang slows only itself.
 */
function jobLanes(webhookTimeoutMs: number): JobLane[] {
  return [
    {
      name: 'webhooks',
      kinds: [WEBHOOK_JOB],
      slots: 8,
      perOrganization: 2,
      timeoutMs: Math.max(2 * webhookTimeoutMs, 30_000),
    },
    MAIN_LANE,
  ]
}

/** Every kind of job this server runs, with what runs it. */
export function createJobs(deps: Omit<AppDeps, 'jobs'>, worker?: string): JobRunner {
  return createJobRunner(
    deps,
    {
      [MAIL_JOB]: sendMailJob(deps.mailer),
      [REMINDER_JOB]: reminderHandler(deps),
      [NOTICE_JOB]: noticeHandler(deps),
      [RECEIPT_MAIL_JOB]: receiptMailHandler(deps),
      [WEBHOOK_JOB]: webhookDeliveryHandler(deps),
      [SCAN_LEDGER_JOB]: scanLedgerHandler(deps),
    },
    worker,
    jobLanes(deps.config.webhookTimeoutMs),
  )
}
