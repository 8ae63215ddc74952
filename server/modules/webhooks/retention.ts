import { and, lt, ne } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { webhookDeliveries } from '../../db/schema.ts'

/**
 * How long a settled delivery (succeeded or failed for good) stays in the delivery log: long enough to look
 * into a receiver's trouble of last month, not forever. Its attempts go with it (on delete cascade); a
 * delivery still being retried is never dropped.
 */
const SETTLED_DELIVERIES_KEPT_MS = 30 * 24 * 60 * 60 * 1000

export async function pruneWebhookDeliveries(db: Db, now: Date): Promise<void> {
  await db
    .delete(webhookDeliveries)
    .where(
      and(
        ne(webhookDeliveries.status, 'pending'),
        lt(webhookDeliveries.createdAt, new Date(now.getTime() - SETTLED_DELIVERIES_KEPT_MS)),
      ),
    )
}
