import { and, inArray, sql } from 'drizzle-orm'
import type * as v from 'valibot'
import { ErrorCode } from '../../../contract/errors.ts'
import type { BulkFilter, BulkResult } from '../../../contract/keychain-bulk.ts'
import type { TransferRecipientSchema } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { transfers, type UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { formatDayIn } from '../../i18n/format.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { findOrganization } from '../../shared/organization.ts'
import { calendarDayIn, monthBoundsIn, startOfDayIn } from '../../shared/time-zones.ts'
import { activeSubscription, transfersUsedThisMonth } from '../subscriptions/service.ts'
import { subscriptionRequired, transferOverlap } from '../transfers/errors.ts'
import {
  authorizedTransferJobs,
  inviteContact,
  overlapWhere,
  resolveRecipient,
} from '../transfers/service.ts'
import { lockSelection } from './selection.ts'

const allowanceTooSmall: MessageDescriptor = /*i18n*/ {
  id: 'error.bulkTransfer.allowance',
  message:
    'The plan allows {allowance} transfers a month and {used} are used: {left} more can be authorized until {date}, not {count}. Nothing was authorized.',
}

type Deps = Pick<AppDeps, 'config'>

/**
 * `POST /keychain-bulk/transfers`, inside the caller's transaction: one transfer per selected keychain (locked
 * in id order) to one recipient for the same dates, with the same checks as one authorization, made once for
 * all: the dates, the recipient, an active subscription (locked), no keychain already held by the recipient
 * (409), no overlap (409), and room in the month's allowance for all of them (402 saying how many are left).
 * All or nothing. Then one mail and the reminders per transfer, and one `transfer.authorized` event each.
 */
export async function authorizeTransfers(
  deps: Deps,
  tx: Db,
  input: {
    organizationId: string
    actor: UserRow
    selection: { ids?: string[] | undefined; filter?: BulkFilter | undefined }
    recipient: v.InferOutput<typeof TransferRecipientSchema>
    fromDate: string
    toDate: string
    now: Date
  },
): Promise<BulkResult> {
  const { organizationId, now } = input
  const locale = input.actor.locale
  const organization = await findOrganization(tx, organizationId)
  if (!organization) throw notFound('No such organization.')
  const timeZone = organization.timeZone
  if (input.fromDate < calendarDayIn(timeZone, now)) {
    const message = 'The from-date must be today or later.'
    throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'fromDate', message }] })
  }
  const startsAt = startOfDayIn(timeZone, input.fromDate)
  const endsAt = startOfDayIn(timeZone, input.toDate)
  const selected = await lockSelection(tx, organizationId, input.selection)
  if (selected.length === 0) return { count: 0, unchanged: 0, transferIds: [] }
  const recipient = await resolveRecipient(tx, organizationId, input.recipient)
  const held = selected.filter((keychain) => recipient.user && keychain.custodianId === recipient.user.id)
  if (held.length > 0) {
    throw new ApiError(
      409,
      ErrorCode.conflict,
      `This person already holds ${held.length} of these keychains (${held
        .slice(0, 3)
        .map((keychain) => keychain.name)
        .join(', ')}). Nothing was authorized.`,
    )
  }
  const subscription = await activeSubscription(tx, organizationId, now, { lock: true })
  if (!subscription) throw subscriptionRequired(locale)
  const used = await transfersUsedThisMonth(tx, organizationId, now, timeZone)
  const allowance = subscription.transfersPerMonth
  if (used + selected.length > allowance) {
    const renewsAt = monthBoundsIn(timeZone, now).end
    const message = translator(locale)._({
      ...allowanceTooSmall,
      values: {
        allowance,
        used,
        left: Math.max(0, allowance - used),
        count: selected.length,
        date: formatDayIn(locale, renewsAt, timeZone),
      },
    })
    throw new ApiError(402, ErrorCode.transferAllowanceExceeded, message, {
      fields: { used, allowance, renewsAt: renewsAt.toISOString() },
    })
  }
  const ids = selected.map((keychain) => keychain.id)
  const overlapping = await tx
    .selectDistinct({ id: transfers.keychainId })
    .from(transfers)
    .where(and(inArray(transfers.keychainId, ids), overlapWhere(startsAt, endsAt, now)))
  if (overlapping.length > 0) throw transferOverlap(locale)
  const user = recipient.invite ? await inviteContact(tx, organizationId, recipient, now) : recipient.user
  const rows = await tx
    .insert(transfers)
    .values(
      selected.map((keychain) => ({
        organizationId,
        keychainId: keychain.id,
        keychainName: keychain.name,
        recipientId: user.id,
        authorizedById: input.actor.id,
        fromDate: input.fromDate,
        toDate: input.toDate,
        startsAt,
        endsAt,
        status: 'SCHEDULED' as const,
        createdAt: now,
      })),
    )
    .returning()
  rows.sort((a, b) => (a.keychainId < b.keychainId ? -1 : 1))
  await enqueueJobs(
    tx,
    await authorizedTransferJobs(
      tx,
      deps,
      rows.map((row) => ({
        organization,
        actor: input.actor,
        recipient: user,
        invited: recipient.invite,
        transfer: row,
        now,
      })),
    ),
  )
  const events = rows.map((row) => ({ keychain_id: row.keychainId, transfer_id: row.id }))
  // One event per transfer, as one authorization writes.
  await tx.execute(sql`select append_organization_event(
      ${organizationId}::uuid, 'transfer.authorized', ${input.actor.id}::uuid, null::timestamptz,
      ${now.toISOString()}::timestamptz, false, array[k.keychain_id], '{}'::uuid[], array[k.transfer_id],
      jsonb_build_object('recipientId', ${user.id}::uuid, 'fromDate', ${input.fromDate}::text,
        'toDate', ${input.toDate}::text))
    from (select * from jsonb_to_recordset(${JSON.stringify(events)}::jsonb)
      as r(keychain_id uuid, transfer_id uuid) order by keychain_id) as k`)
  return { count: rows.length, unchanged: 0, transferIds: rows.map((row) => row.id) }
}
