import { and, asc, desc, eq, notInArray } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { PushSubscription, PushSubscriptionInput } from '../../../contract/notices.ts'
import { isSecureDeployment } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { type PushSubscriptionRow, pushSubscriptions } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'

/** Devices a person receives push on; subscribing one more lets the one unseen longest go. */
const PUSH_SUBSCRIPTIONS_MAX = 10

const toSubscription = (row: PushSubscriptionRow): PushSubscription => ({
  id: row.id,
  name: row.name,
  service: new URL(row.endpoint).host,
  createdAt: row.createdAt.toISOString(),
  seenAt: row.seenAt.toISOString(),
})

/** `GET /push-subscriptions`: the caller's devices that receive push, last seen first. */
export async function listSubscriptions(db: Db, userId: string): Promise<PushSubscription[]> {
  const rows = await db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.seenAt), asc(pushSubscriptions.id))
  return rows.map(toSubscription)
}

/**
 * `PUT /push-subscriptions`: this browser's subscription, for the caller. The same endpoint again (every app
 * start) refreshes its keys and `seenAt`; a browser where someone else signed in before moves to the caller, so
 * a shared device tells only whoever uses it now. A server on https takes only https endpoints (push services are);
 * one on http://localhost (a developer's, the tests') takes a push service on the loopback too.
 */
export async function subscribe(
  deps: Pick<AppDeps, 'database' | 'clock' | 'config'>,
  userId: string,
  input: PushSubscriptionInput,
): Promise<{ subscription: PushSubscription; created: boolean }> {
  if (isSecureDeployment(deps.config) && !input.endpoint.startsWith('https://')) {
    const message = 'endpoint must be an https:// address.'
    throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'endpoint', message }] })
  }
  const now = deps.clock.now()
  const values = { userId, p256dh: input.keys.p256dh, auth: input.keys.auth, name: input.name, seenAt: now }
  return deps.database.db.transaction(async (tx) => {
    // Stryker disable ObjectLiteral: only whether the endpoint has a row counts, not the columns read
    const [known] = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, input.endpoint))
    // Stryker restore ObjectLiteral
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ ...values, endpoint: input.endpoint, createdAt: now })
      .onConflictDoUpdate({ target: pushSubscriptions.endpoint, set: values })
      .returning()
    const kept = await tx
      .select({ id: pushSubscriptions.id })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .orderBy(desc(pushSubscriptions.seenAt), desc(pushSubscriptions.createdAt))
      .limit(PUSH_SUBSCRIPTIONS_MAX)
    await tx.delete(pushSubscriptions).where(
      and(
        eq(pushSubscriptions.userId, userId),
        notInArray(
          pushSubscriptions.id,
          kept.map((each) => each.id),
        ),
      ),
    )
    return { subscription: toSubscription(row!), created: !known }
  })
}

/** `DELETE /push-subscriptions/{id}`: another person's subscription, or an unknown one, is a 404. */
export async function unsubscribe(db: Db, userId: string, id: string): Promise<void> {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id })
  if (removed.length === 0) throw notFound('No such device receiving notifications.')
}
