import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import {
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_TEST_EVENT,
} from '../../../contract/webhooks.ts'
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { JobLane } from '../../jobs/lane.ts'
import { retryDelayMs } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import { openSecret } from '../../shared/secret-box.ts'
import { WEBHOOK_JOB } from './enqueue.ts'
import { postWebhook, type SendResult } from './send.ts'
import { signatureHeader } from './signature.ts'

const PayloadSchema = v.object({ deliveryId: v.string() })

/** Failures that another attempt cannot fix: the delivery stops there. */
const FINAL_ERRORS = new Set(['endpoint_disabled', 'secret_unreadable'])

class WebhookAttemptFailed extends Error {}

/**
 * Runs one attempt of a delivery: signs the stored body with this attempt's timestamp, posts it, and writes the
 * attempt to the endpoint's log. A 2xx settles the delivery; anything else throws, so the job queue retries it
 * with its backoff (`retryDelayMs`) until its attempts are spent. A delivery already settled (a job run again
 * after its process died past the send) is not sent again.
 */
function webhookDeliveryHandler(deps: Pick<AppDeps, 'database' | 'clock' | 'config' | 'secret'>): JobHandler {
  const { db } = deps.database
  return async (job) => {
    const { deliveryId } = v.parse(PayloadSchema, job.payload)
    const [row] = await db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, deliveryId))
    if (row?.delivery.status !== 'pending') return undefined
    const { delivery, endpoint } = row
    const startedAt = deps.clock.now()
    const secret = openSecret(deps.secret, endpoint.secretBox)
    let result: SendResult
    if (!endpoint.enabled && delivery.eventType !== WEBHOOK_TEST_EVENT) {
      result = { statusCode: null, durationMs: 0, error: 'endpoint_disabled' }
    } else if (secret === null) {
      result = { statusCode: null, durationMs: 0, error: 'secret_unreadable' }
    } else {
      const timestamp = Math.floor(startedAt.getTime() / 1000)
      result = await postWebhook(endpoint.url, delivery.body, {
        timeoutMs: deps.config.webhookTimeoutMs,
        allowPrivate: deps.config.webhookAllowPrivateTargets,
        headers: {
          [WEBHOOK_SIGNATURE_HEADER]: signatureHeader(secret, delivery.body, timestamp),
          [WEBHOOK_EVENT_HEADER]: delivery.eventType,
          [WEBHOOK_ID_HEADER]: delivery.eventId,
        },
      })
    }
    const accepted = result.error === null
    const last = accepted || job.attempts >= job.maxAttempts || FINAL_ERRORS.has(result.error ?? '')
    const nextAttemptAt = last ? null : new Date(deps.clock.now().getTime() + retryDelayMs(job.attempts))
    await db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values({
        deliveryId,
        attempt: job.attempts,
        startedAt,
        durationMs: result.durationMs,
        statusCode: result.statusCode,
        error: result.error,
        nextAttemptAt,
      })
      await tx
        .update(webhookDeliveries)
        .set({
          status: accepted ? 'succeeded' : last ? 'failed' : 'pending',
          attempts: job.attempts,
          lastStatusCode: result.statusCode,
          nextAttemptAt,
          ...(accepted ? { deliveredAt: deps.clock.now() } : {}),
        })
        .where(eq(webhookDeliveries.id, deliveryId))
    })
    if (accepted || last) return undefined
    throw new WebhookAttemptFailed(
      `webhook ${result.error}${result.statusCode ? ` ${result.statusCode}` : ''}`,
    )
  }
}

/** The jobs this module runs, for the server to register (`server/job-handlers.ts`). */
export function webhookJobs(deps: Pick<AppDeps, 'database' | 'clock' | 'config' | 'secret'>): JobHandlers {
  return { [WEBHOOK_JOB]: webhookDeliveryHandler(deps) }
}

/**
 * Webhook deliveries wait on servers each organization chooses, however slow: they have a lane of their own, so
 * mail, reminders and notices never wait behind them; in each lane one organization has a bounded share, so an
 * organization whose jobs hang slows only itself.
 */
export function webhookLane(webhookTimeoutMs: number): JobLane {
  return {
    name: 'webhooks',
    kinds: [WEBHOOK_JOB],
    slots: 8,
    perOrganization: 2,
    timeoutMs: Math.max(2 * webhookTimeoutMs, 30_000),
  }
}
