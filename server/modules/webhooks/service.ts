import { randomUUID } from 'node:crypto'
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  WEBHOOK_ENDPOINTS_MAX,
  WEBHOOK_LOG_SIZE,
  WEBHOOK_TEST_EVENT,
  WEBHOOK_TESTS_PER_MINUTE,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  type WebhookWithSecret,
} from '../../../contract/webhooks.ts'
import {
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { hitRateLimit } from '../../http/rate-limit.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { sealSecret } from '../../shared/secret-box.ts'
import { WEBHOOK_JOB, webhookBody } from './enqueue.ts'
import { newWebhookSecret, secretHint } from './signature.ts'
import { refusedTarget } from './target.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config' | 'secret' | 'jobs'>
type Scope = { organizationId: string; actorId: string }

const iso = (date: Date | null) => date?.toISOString() ?? null

const toEndpoint = (row: WebhookEndpointRow): WebhookEndpoint => ({
  id: row.id,
  url: row.url,
  description: row.description,
  eventTypes: row.eventTypes as WebhookEventType[],
  enabled: row.enabled,
  secretHint: row.secretHint,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
})

/** 400 on the `url` field: a loopback or private address while the server refuses them (SSRF). */
function checkTarget(deps: Deps, url: string): void {
  if (refusedTarget(new URL(url), deps.config.webhookAllowPrivateTargets)) {
    const message = 'This server does not send webhooks to loopback or private network addresses.'
    throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'url', message }] })
  }
}

async function findEndpoint(deps: Deps, organizationId: string, id: string): Promise<WebhookEndpointRow> {
  const [row] = await deps.database.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
  if (!row) throw notFound('No such webhook.')
  return row
}

export async function listWebhooks(deps: Deps, organizationId: string): Promise<WebhookEndpoint[]> {
  const rows = await deps.database.db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId))
    .orderBy(webhookEndpoints.createdAt, webhookEndpoints.id)
  return rows.map(toEndpoint)
}

function sealedNewSecret(deps: Deps) {
  const secret = newWebhookSecret()
  return { secret, secretBox: sealSecret(deps.secret, secret), secretHint: secretHint(secret) }
}

/**
 * A new webhook, at most `WEBHOOK_ENDPOINTS_MAX` per organization (409 beyond): counted under a lock of the
 * organization's webhooks, so two creations at once cannot both take the last place.
 */
export async function createWebhook(
  deps: Deps,
  scope: Scope,
  input: { url: string; eventTypes: WebhookEventType[]; description: string },
): Promise<WebhookWithSecret> {
  checkTarget(deps, input.url)
  const now = deps.clock.now()
  const { secret, ...sealed } = sealedNewSecret(deps)
  const row = await deps.database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`webhooks:${scope.organizationId}`}))`)
    const [existing] = await tx
      .select({ count: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organizationId, scope.organizationId))
    if (existing!.count >= WEBHOOK_ENDPOINTS_MAX) {
      throw new ApiError(
        409,
        ErrorCode.webhookLimitReached,
        `An organization has at most ${WEBHOOK_ENDPOINTS_MAX} webhooks: delete one before adding another.`,
      )
    }
    const [inserted] = await tx
      .insert(webhookEndpoints)
      .values({
        organizationId: scope.organizationId,
        url: input.url,
        description: input.description,
        eventTypes: input.eventTypes,
        ...sealed,
        createdById: scope.actorId,
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    return inserted!
  })
  return { endpoint: toEndpoint(row), secret }
}

export async function updateWebhook(
  deps: Deps,
  organizationId: string,
  id: string,
  input: { url?: string; eventTypes?: WebhookEventType[]; description?: string; enabled?: boolean },
): Promise<WebhookEndpoint> {
  await findEndpoint(deps, organizationId, id)
  if (input.url !== undefined) checkTarget(deps, input.url)
  const [row] = await deps.database.db
    .update(webhookEndpoints)
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      updatedAt: deps.clock.now(),
    })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
    .returning()
  if (!row) throw notFound('No such webhook.')
  return toEndpoint(row)
}

/** Deletes the endpoint with its log; its pending deliveries' jobs find nothing and end. */
export async function deleteWebhook(deps: Deps, organizationId: string, id: string): Promise<void> {
  const deleted = await deps.database.db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
    .returning({ id: webhookEndpoints.id })
  if (deleted.length === 0) throw notFound('No such webhook.')
}

/** A new secret at once (the old one stops signing): pending deliveries are signed with it from now on. */
export async function rotateWebhookSecret(
  deps: Deps,
  organizationId: string,
  id: string,
): Promise<WebhookWithSecret> {
  await findEndpoint(deps, organizationId, id)
  const { secret, ...sealed } = sealedNewSecret(deps)
  const [row] = await deps.database.db
    .update(webhookEndpoints)
    .set({ ...sealed, updatedAt: deps.clock.now() })
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.organizationId, organizationId)))
    .returning()
  if (!row) throw notFound('No such webhook.')
  return { endpoint: toEndpoint(row), secret }
}

/** The endpoint's last deliveries, newest first, each with its attempts in order. */
export async function listDeliveries(
  deps: Deps,
  organizationId: string,
  id: string,
): Promise<WebhookDelivery[]> {
  await findEndpoint(deps, organizationId, id)
  const { db } = deps.database
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(WEBHOOK_LOG_SIZE)
  const attempts =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(webhookAttempts.attempt, webhookAttempts.startedAt)
  return rows.map((row) => toDelivery(row, attempts))
}

/** Attempts logged before private addresses were reported as failed connections read the same (see send.ts). */
const answeredError = (error: string | null) => (error === 'target_refused' ? 'connection_failed' : error)

function toDelivery(
  row: WebhookDeliveryRow,
  attempts: Array<typeof webhookAttempts.$inferSelect>,
): WebhookDelivery {
  return {
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: iso(row.deliveredAt),
    nextAttemptAt: iso(row.nextAttemptAt),
    attempts: attempts
      .filter((attempt) => attempt.deliveryId === row.id)
      .map((attempt) => ({
        attempt: attempt.attempt,
        startedAt: attempt.startedAt.toISOString(),
        durationMs: attempt.durationMs,
        statusCode: attempt.statusCode,
        error: answeredError(attempt.error),
        nextAttemptAt: iso(attempt.nextAttemptAt),
      })),
  }
}

const TEST_SENDS = { limit: WEBHOOK_TESTS_PER_MINUTE, windowMs: 60_000 }

/**
 * The "send test" button: a `webhook.test` event for this endpoint only (even disabled), through the queue
 * like any other so its attempt shows in the log, but tried once: a test is asked for by someone watching, and
 * retrying it would only add to the queue's load. The runner is nudged to send it now.
 */
export async function sendTestWebhook(deps: Deps, scope: Scope, id: string): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(deps, scope.organizationId, id)
  const now = deps.clock.now()
  const { db } = deps.database
  const limit = await hitRateLimit(db, `webhook:tests:${scope.organizationId}`, TEST_SENDS, now)
  if (limit.limited) {
    const message = `An organization may send ${WEBHOOK_TESTS_PER_MINUTE} tests a minute: please try again in a minute.`
    throw new ApiError(429, ErrorCode.rateLimited, message, {
      headers: { 'Retry-After': String(limit.retryAfterS) },
    })
  }
  const eventId = randomUUID()
  const body = webhookBody({
    eventId,
    type: WEBHOOK_TEST_EVENT,
    occurredAt: now,
    organizationId: scope.organizationId,
    data: { webhookId: endpoint.id, actorId: scope.actorId },
  })
  const row = await db.transaction(async (tx) => {
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint.id,
        organizationId: scope.organizationId,
        eventId,
        eventType: WEBHOOK_TEST_EVENT,
        body,
        createdAt: now,
      })
      .returning()
    await enqueueJobs(tx, [
      {
        kind: WEBHOOK_JOB,
        payload: { deliveryId: delivery!.id },
        runAt: now,
        now,
        organizationId: scope.organizationId,
        dedupeKey: `webhook:${delivery!.id}`,
        maxAttempts: 1,
      },
    ])
    return delivery!
  })
  deps.jobs.nudge()
  return toDelivery(row, [])
}
