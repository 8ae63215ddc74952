import * as v from 'valibot'
import type { Mailer, MailMessage } from '../mail/mailer.ts'
import type { NewJob } from './queue.ts'
import type { JobHandler } from './runner.ts'

export const MAIL_JOB = 'mail'

const QueuedMailSchema = v.object({
  to: v.string(),
  subject: v.string(),
  text: v.string(),
  html: v.string(),
})

/**
 * A rendered mail to send as soon as a worker takes it, retried with backoff while the SMTP server refuses.
 * Sign-in mails are not queued: they carry a live token and code, which are never stored in clear.
 */
export function mailJob(
  message: MailMessage,
  options: { now: Date; organizationId?: string | null; dedupeKey?: string },
): NewJob {
  const { to, subject, text, html } = message
  return {
    kind: MAIL_JOB,
    payload: { to, subject, text, html },
    runAt: options.now,
    now: options.now,
    organizationId: options.organizationId ?? null,
    ...(options.dedupeKey ? { dedupeKey: options.dedupeKey } : {}),
  }
}

export function sendMailJob(mailer: Mailer): JobHandler {
  return async (job) => {
    await mailer.send(v.parse(QueuedMailSchema, job.payload))
    return undefined
  }
}
