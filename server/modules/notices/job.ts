import * as v from 'valibot'
import type { NewJob } from '../../jobs/queue.ts'
import type { NoticeKind } from '../../mail/notice-mail.ts'

export const NOTICE_JOB = 'notice'

const id = v.string()
export const NoticePayloadSchema = v.variant('kind', [
  v.object({ kind: v.literal('transfer.picked_up'), transferId: id, actorId: id, at: v.string() }),
  v.object({ kind: v.literal('transfer.returned'), transferId: id, actorId: id, at: v.string() }),
  v.object({ kind: v.literal('order.paid'), orderId: id }),
  v.object({ kind: v.literal('order.shipped'), orderId: id }),
  v.object({ kind: v.literal('order.delivered'), orderId: id }),
  v.object({ kind: v.literal('subscription.renewed'), organizationId: id }),
  v.object({ kind: v.literal('subscription.ending'), organizationId: id, periodEnd: v.string() }),
])
export type NoticePayload = v.InferOutput<typeof NoticePayloadSchema> & { kind: NoticeKind }

/**
 * A notice to enqueue in the transaction of the change it tells about: its job finds the people to tell when
 * it runs (in their language) and turns into their mails. `runAt` delays it (a plan about to end).
 */
export function noticeJob(
  payload: NoticePayload,
  options: { now: Date; organizationId: string; runAt?: Date; dedupeKey?: string },
): NewJob {
  return {
    kind: NOTICE_JOB,
    payload,
    runAt: options.runAt ?? options.now,
    now: options.now,
    organizationId: options.organizationId,
    ...(options.dedupeKey ? { dedupeKey: options.dedupeKey } : {}),
  }
}
