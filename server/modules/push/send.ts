import { createHash } from 'node:crypto'
import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import webpush from 'web-push'
import { type PushMessage, PushMessageSchema } from '../../../contract/notices.ts'
import { pushSubscriptions } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { NewJob } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import { badgeCount } from './badge.ts'
import { vapidKeys } from './vapid.ts'

const PUSH_JOB = 'push'
/** How long a push service keeps a message for a device that is off (a day: older notices are stale). */
const TIME_TO_LIVE_S = 24 * 60 * 60
/** The whole of one delivery to a push service. */
const PUSH_TIMEOUT_MS = 10_000

const PushJobSchema = v.object({ subscriptionId: v.string(), message: PushMessageSchema })

/** A push message to one device, sent as soon as a worker takes it, retried while its push service is busy. */
export function pushJob(
  subscriptionId: string,
  message: PushMessage,
  options: { now: Date; organizationId: string | null; dedupeKey: string },
): NewJob {
  return {
    kind: PUSH_JOB,
    payload: { subscriptionId, message },
    runAt: options.now,
    now: options.now,
    organizationId: options.organizationId,
    dedupeKey: options.dedupeKey,
  }
}

/**
 * Encrypts the message, with the reader's badge count, to the device (RFC 8291, aes128gcm), signs the request with
 * the server's VAPID key (RFC 8292) and posts it. 404/410: the device unsubscribed, its row goes; another 4xx is
 * logged and dropped; 429 and 5xx throw, so the queue tries again later. A subscription gone meanwhile sends
 * nothing.
 */
function sendPushJob(deps: Pick<AppDeps, 'database' | 'config' | 'logger' | 'clock'>): JobHandler {
  const { db } = deps.database
  return async (job) => {
    const { subscriptionId, message } = v.parse(PushJobSchema, job.payload)
    const [subscription] = await db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.id, subscriptionId))
    if (!subscription) return undefined
    const keys = await vapidKeys(deps.config)
    // The icon's badge as it stands when the message leaves, not when the notice was written.
    const badge = await badgeCount(db, subscription.userId, deps.clock.now())
    const endpoint = new URL(subscription.endpoint)
    const encrypted = webpush.encrypt(
      subscription.p256dh,
      subscription.auth,
      JSON.stringify({ ...message, badge }),
      // Stryker disable next-line StringLiteral: http_ece encrypts with aes128gcm when no version is named
      'aes128gcm',
    )
    const vapid = webpush.getVapidHeaders(
      endpoint.origin,
      deps.config.vapidSubject,
      keys.publicKey,
      keys.privateKey,
      'aes128gcm',
    )
    const response = await fetch(subscription.endpoint, {
      method: 'POST',
      headers: {
        ...vapid,
        TTL: String(TIME_TO_LIVE_S),
        Urgency: 'normal',
        // Notices of one subject replace each other at the push service while the device is off.
        Topic: createHash('sha256').update(message.tag).digest('base64url').slice(0, 32),
        'Content-Encoding': 'aes128gcm',
        'Content-Type': 'application/octet-stream',
      },
      body: new Uint8Array(encrypted.cipherText),
      redirect: 'error',
      signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
    })
    await response.body?.cancel()
    if (response.ok) return undefined
    const context = { jobId: job.id, subscriptionId, status: response.status, service: endpoint.host }
    if (response.status === 404 || response.status === 410) {
      await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId))
      deps.logger.info(context, 'Push subscription gone: removed')
      return undefined
    }
    if (response.status === 429 || response.status >= 500) {
      throw new Error(`The push service answered ${response.status}`)
    }
    // A malformed or unauthorized request: sending it again would be refused again.
    deps.logger.warn(context, 'Push message refused by the push service: dropped')
    return undefined
  }
}

export function pushJobs(deps: Pick<AppDeps, 'database' | 'config' | 'logger' | 'clock'>): JobHandlers {
  return { [PUSH_JOB]: sendPushJob(deps) }
}
