import { eq } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { type OrderRow, orderLines, organizations } from '../../db/schema.ts'
import { appendEvent } from '../events/append.ts'
import { startSubscription } from '../subscriptions/service.ts'
import { replaceTag } from '../tags/lost.ts'
import { planConfigurationOf, tagConfiguration } from './pricing.ts'
import { createOrderTags } from './tag-numbers.ts'

/**
 * What paying an order does, inside the transaction that moves it to PAID: each TAG line's tags are created
 * (see `orderTagNumbers` for the numbering) and a PLAN line starts or replaces the organization's
 * subscription. The organization row is locked first, so orders paid at once are fulfilled one after the other.
 */
export async function fulfilPaidOrder(tx: Db, order: OrderRow, now: Date): Promise<void> {
  await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, order.organizationId))
    .for('update')
  const lines = await tx
    .select()
    .from(orderLines)
    .where(eq(orderLines.orderId, order.id))
    .orderBy(orderLines.position)
  const tagIds: string[] = []
  for (const line of lines) {
    if (line.productType === 'TAG' && tagConfiguration(line).replacesTagId) {
      // A replacement: the same tag (same code) gets a new QR, no new number (its own ledger entry).
      await replaceTag(tx, {
        organizationId: order.organizationId,
        tagId: tagConfiguration(line).replacesTagId!,
        orderId: order.id,
        now,
      })
    } else if (line.productType === 'TAG') {
      const config = tagConfiguration(line)
      const created = await createOrderTags(
        tx,
        order.organizationId,
        {
          alphaCode: config.alphaCode,
          startNumber: config.startNumber,
          count: line.quantity,
          name: config.name,
          foregroundColor: config.foregroundColor,
          backgroundColor: config.backgroundColor,
          orderId: order.id,
        },
        now,
      )
      tagIds.push(...created.map((tag) => tag.id))
    } else if (line.productType === 'PLAN') {
      await startSubscription(tx, {
        organizationId: order.organizationId,
        planId: line.productRefId,
        plan: planConfigurationOf(line),
        orderId: order.id,
        now,
      })
    }
  }
  if (tagIds.length > 0) {
    await appendEvent(tx, {
      organizationId: order.organizationId,
      kind: 'tags.created',
      actorId: null,
      serverTime: now,
      tagIds,
      payload: { orderId: order.id, count: tagIds.length },
    })
  }
}
