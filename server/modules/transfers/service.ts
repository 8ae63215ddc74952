import { and, eq, gt, lt, ne, or, sql } from 'drizzle-orm'
import type * as v from 'valibot'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Locale } from '../../../contract/locale.ts'
import { permissionsFor, type Role } from '../../../contract/permissions.ts'
import { transferStatus } from '../../../contract/transfer-state.ts'
import type { Transfer, TransferCreateSchema } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import {
  memberships,
  type OrganizationRow,
  type TransferRow,
  transfers,
  type UserRow,
  users,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { memberRole } from '../../http/member-role.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs, type NewJob } from '../../jobs/queue.ts'
import { transferAuthorizedMail, transferCancelledMail } from '../../mail/transfer-mail.ts'
import { addressOf, findOrganization } from '../../shared/organization.ts'
import { displayName } from '../../shared/person.ts'
import { calendarDayIn, monthBoundsIn, startOfDayIn } from '../../shared/time-zones.ts'
import { findTransferRow, type TransferViewRow, toTransfer } from '../../shared/transfer-view.ts'
import { appendEvent } from '../events/append.ts'
import { findKeychain } from '../keychains/service.ts'
import { addMembership } from '../members/service.ts'
import { personalNoticeJobs } from '../notices/deliver.ts'
import { activeSubscription, transfersUsedThisMonth } from '../subscriptions/service.ts'
import { allowanceExceeded, notCancellable, subscriptionRequired, transferOverlap } from './errors.ts'
import { reminderJobs } from './reminders.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config' | 'logger'>
type TransferCreate = v.InferOutput<typeof TransferCreateSchema>

const invalid = (path: string, message: string) =>
  new ApiError(400, ErrorCode.validation, message, { issues: [{ path, message }] })

/**
 * Who the transfer goes to. A member (any role, INVITED or ACTIVE) by id; or by address: a member's address is
 * that member, any other address is invited as CONTACT (`invite`; the account is created when `user` is null).
 */
export type Recipient =
  | { user: UserRow; invite: false }
  | { user: UserRow | null; invite: true; email: string; locale: Locale }

export async function resolveRecipient(
  db: Db,
  organizationId: string,
  recipient: TransferCreate['recipient'],
): Promise<Recipient> {
  const notMember = 'This person is not a member of the organization.'
  const disabled = 'This person’s membership of the organization is disabled.'
  const [found] = await db
    .select({ user: users, status: memberships.status })
    .from(users)
    .leftJoin(
      memberships,
      and(eq(memberships.userId, users.id), eq(memberships.organizationId, organizationId)),
    )
    .where(recipient.kind === 'member' ? eq(users.id, recipient.userId) : eq(users.email, recipient.email))
  if (recipient.kind === 'member') {
    if (!found?.status || found.status === 'DISABLED') throw invalid('recipient.userId', notMember)
    return { user: found.user, invite: false }
  }
  if (found?.status === 'DISABLED') throw invalid('recipient.email', disabled)
  if (found?.status) return { user: found.user, invite: false }
  return { user: found?.user ?? null, invite: true, email: recipient.email, locale: recipient.locale ?? 'fr' }
}

/** Creates the account if needed and adds the INVITED CONTACT membership; answers the account. */
export async function inviteContact(
  tx: Db,
  organizationId: string,
  recipient: Extract<Recipient, { invite: true }>,
  now: Date,
): Promise<UserRow> {
  await tx
    .insert(users)
    .values({ email: recipient.email, locale: recipient.locale, createdAt: now, lastSeenAt: now })
    .onConflictDoNothing({ target: users.email })
  const [user] = await tx.select().from(users).where(eq(users.email, recipient.email))
  // Stryker disable next-line all: the user was just inserted or found by the same address
  if (!user) throw new Error('invited recipient vanished')
  await addMembership(tx, { userId: user.id, organizationId, role: 'CONTACT', status: 'INVITED', now })
  return user
}

/**
 * Another transfer of the keychain whose window meets `[startsAt, endsAt)` (half-open): a SCHEDULED one not
 * expired, or one out (TRANSFERRED/RETURNING), whose window counts as `[startsAt, max(endsAt, now))` — an
 * overdue keychain keeps its window open until it comes back.
 */
export async function overlaps(
  tx: Db,
  keychainId: string,
  startsAt: Date,
  endsAt: Date,
  now: Date,
  /** A transfer whose own window is being moved (an extension). */
  exceptId?: string,
) {
  const [row] = await tx
    .select({ id: transfers.id })
    .from(transfers)
    .where(
      and(
        eq(transfers.keychainId, keychainId),
        exceptId ? ne(transfers.id, exceptId) : undefined,
        overlapWhere(startsAt, endsAt, now),
      ),
    )
    .limit(1)
  return row !== undefined
}

/** The condition of `overlaps` on a transfer row, without the keychain (a bulk authorization checks many). */
export function overlapWhere(startsAt: Date, endsAt: Date, now: Date) {
  return and(
    lt(transfers.startsAt, endsAt),
    or(
      and(eq(transfers.status, 'SCHEDULED'), gt(transfers.endsAt, now), gt(transfers.endsAt, startsAt)),
      and(
        eq(transfers.status, 'TRANSFERRED'),
        sql`greatest(${transfers.endsAt}, ${now.toISOString()}::timestamptz) > ${startsAt.toISOString()}::timestamptz`,
      ),
    ),
  )
}

/**
 * `POST /keychains/{id}/transfers`, in one transaction with the keychain and the subscription rows locked (two
 * authorizations racing for the last transfer of the month, or for one keychain's dates, take turns): the
 * keychain (404), the dates (fromDate today or later in the organization's time zone), the recipient, an active
 * subscription (402), the month's allowance (402), no overlap (409); then the invitation of a new recipient,
 * the transfer, and after the commit the recipient's mail (a failure is logged, the transfer stands).
 */
export async function createTransfer(
  deps: Deps,
  input: { organizationId: string; actor: UserRow; keychainId: string; transfer: TransferCreate },
): Promise<Transfer> {
  const now = deps.clock.now()
  const { transfer } = input
  const locale = input.actor.locale
  const created = await deps.database.db.transaction(async (tx) => {
    const organization = await findOrganization(tx, input.organizationId)
    // Stryker disable next-line all: the caller's membership of it was checked by the route
    if (!organization) throw notFound('No such organization.')
    const keychain = await findKeychain(tx, input.organizationId, input.keychainId, { lock: true })
    const timeZone = organization.timeZone
    if (transfer.fromDate < calendarDayIn(timeZone, now)) {
      throw invalid('fromDate', 'The from-date must be today or later.')
    }
    const startsAt = startOfDayIn(timeZone, transfer.fromDate)
    const endsAt = startOfDayIn(timeZone, transfer.toDate)
    const recipient = await resolveRecipient(tx, input.organizationId, transfer.recipient)
    if (recipient.user && recipient.user.id === keychain.custodianId) {
      throw new ApiError(409, ErrorCode.conflict, 'This person already holds the keychain.')
    }
    const subscription = await activeSubscription(tx, input.organizationId, now, { lock: true })
    if (!subscription) throw subscriptionRequired(locale)
    const used = await transfersUsedThisMonth(tx, input.organizationId, now, timeZone)
    if (used >= subscription.transfersPerMonth) {
      throw allowanceExceeded(locale, {
        used,
        allowance: subscription.transfersPerMonth,
        renewsAt: monthBoundsIn(timeZone, now).end,
        timeZone,
      })
    }
    if (await overlaps(tx, keychain.id, startsAt, endsAt, now)) throw transferOverlap(locale)
    const user = recipient.invite
      ? await inviteContact(tx, input.organizationId, recipient, now)
      : recipient.user
    const [row] = await tx
      .insert(transfers)
      .values({
        organizationId: input.organizationId,
        keychainId: keychain.id,
        keychainName: keychain.name,
        recipientId: user.id,
        authorizedById: input.actor.id,
        fromDate: transfer.fromDate,
        toDate: transfer.toDate,
        startsAt,
        endsAt,
        status: 'SCHEDULED',
        createdAt: now,
      })
      .returning()
    // Stryker disable next-line all: an INSERT … RETURNING answers its row
    if (!row) throw new Error('transfer insert returned no row')
    await enqueueJobs(
      tx,
      await authorizedTransferJobs(tx, deps, [
        { organization, actor: input.actor, recipient: user, invited: recipient.invite, transfer: row, now },
      ]),
    )
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'transfer.authorized',
      actorId: input.actor.id,
      serverTime: now,
      keychainIds: [keychain.id],
      transferIds: [row.id],
      payload: { recipientId: user.id, fromDate: row.fromDate, toDate: row.toDate },
    })
    return row
  })
  deps.jobs.nudge()
  return viewOf(deps.database.db, created.id, input.actor.id, now, deps.config.publicUrl)
}

/**
 * What an authorization sends: the recipient's notice (by mail, push or both as they chose; always the mail to
 * someone invited by it, whose account it makes) and the reminders of each window. Several transfers at once
 * (a bulk authorization) read the recipients' choices once.
 */
export async function authorizedTransferJobs(
  db: Db,
  deps: Pick<AppDeps, 'config'>,
  inputs: ReadonlyArray<{
    organization: OrganizationRow
    actor: UserRow
    recipient: UserRow
    invited: boolean
    transfer: TransferRow
    now: Date
  }>,
): Promise<NewJob[]> {
  const [first] = inputs
  if (!first) return []
  const { publicUrl } = deps.config
  const notices = inputs.map((input) => {
    const { organization, transfer } = input
    const mail = transferAuthorizedMail({
      to: input.recipient.email,
      locale: input.recipient.locale,
      publicUrl,
      transferId: transfer.id,
      organizationName: organization.name,
      keychainName: transfer.keychainName,
      fromDate: transfer.fromDate,
      toDate: transfer.toDate,
      authorizerName: displayName(input.actor),
      address: addressOf(organization),
      invited: input.invited,
    })
    return {
      input,
      notice: {
        userId: input.recipient.id,
        kind: 'transfer_authorized',
        subject: `transfer:${transfer.id}`,
        mail,
      } as const,
    }
  })
  const invitations = notices.filter(({ input }) => input.invited)
  const chosen = notices.filter(({ input }) => !input.invited)
  return [
    ...invitations.map(({ input, notice }) =>
      mailJob(notice.mail, { now: input.now, organizationId: input.organization.id }),
    ),
    ...(await personalNoticeJobs(
      db,
      chosen.map(({ notice }) => notice),
      { now: first.now, organizationId: first.organization.id, publicUrl },
    )),
    ...inputs.flatMap(({ transfer, organization, now }) =>
      reminderJobs(transfer, organization.timeZone, now),
    ),
  ]
}

async function viewOf(db: Db, id: string, callerId: string, now: Date, publicUrl: string): Promise<Transfer> {
  const row = await findTransferRow(db, id)
  // Stryker disable next-line all: viewOf reads a transfer its caller has just written
  if (!row) throw notFound('No such transfer.')
  return toTransfer(db, row, callerId, now, publicUrl)
}

/**
 * `DELETE /transfers/{id}`: a SCHEDULED transfer (expired or not) of the organization becomes CANCELLED, which
 * gives its month's allowance back, and the recipient is told by mail. Cancelling it again answers the
 * cancelled transfer and mails no one (a DELETE whose answer was lost is retried); any other status: 409
 * `invalid_transition` with `allowed: []`. Another organization's transfer is a 404.
 */
export async function cancelTransfer(
  deps: Deps,
  input: { organizationId: string; actorId: string; id: string },
): Promise<Transfer> {
  const now = deps.clock.now()
  const { db } = deps.database
  const cancelled = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(transfers)
      .where(and(eq(transfers.id, input.id), eq(transfers.organizationId, input.organizationId)))
      .for('update')
    if (!current) throw notFound('No such transfer.')
    if (current.status === 'CANCELLED') return { id: current.id, alreadyCancelled: true }
    if (current.status !== 'SCHEDULED') throw notCancellable(transferStatus(current, now))
    await tx
      .update(transfers)
      .set({ status: 'CANCELLED', cancelledAt: now })
      .where(eq(transfers.id, current.id))
    const view = await findTransferRow(tx, current.id)
    // Stryker disable next-line all: the transfer was found and locked just above
    if (!view) throw notFound('No such transfer.')
    await enqueueJobs(tx, [mailJob(cancellationMail(view), { now, organizationId: current.organizationId })])
    await appendEvent(tx, {
      organizationId: current.organizationId,
      kind: 'transfer.cancelled',
      actorId: input.actorId,
      serverTime: now,
      keychainIds: [current.keychainId],
      transferIds: [current.id],
    })
    return { id: current.id, alreadyCancelled: false }
  })
  const view = await findTransferRow(db, cancelled.id)
  // Stryker disable next-line all: the transfer was found and locked by the cancellation above
  if (!view) throw notFound('No such transfer.')
  if (!cancelled.alreadyCancelled) deps.jobs.nudge()
  return toTransfer(db, view, input.actorId, now, deps.config.publicUrl)
}

function cancellationMail(view: TransferViewRow) {
  return transferCancelledMail({
    to: view.recipient.email,
    locale: view.recipient.locale,
    organizationName: view.organization.name,
    keychainName: view.keychainName ?? view.transfer.keychainName,
    fromDate: view.transfer.fromDate,
    toDate: view.transfer.toDate,
  })
}

/**
 * Whether the user may see the transfer: its recipient while a member of its organization (not DISABLED,
 * whichever organization they have selected), or a member of that organization other than a CONTACT whose role
 * reads transfers. Gives the user's role there too (null: none), which the view and the pickup rules need.
 */
async function transferAccess(
  db: Db,
  row: TransferViewRow,
  userId: string,
): Promise<{ visible: boolean; role: Role | null }> {
  const role = await memberRole(db, userId, row.transfer.organizationId)
  const recipient =
    row.recipient.id === userId && row.recipientStatus !== null && row.recipientStatus !== 'DISABLED'
  const reader = role !== null && role !== 'CONTACT' && permissionsFor(role).includes('read__transfer')
  return { visible: recipient || reader, role }
}

/**
 * The transfer row locked for the caller's transaction, with its view and the caller's role in its organization;
 * 404 when it does not exist or the caller may not see it (`transferAccess`).
 */
export async function lockVisibleTransfer(tx: Db, transferId: string, callerId: string) {
  const [locked] = await tx.select().from(transfers).where(eq(transfers.id, transferId)).for('update')
  const view = locked ? await findTransferRow(tx, locked.id) : null
  const access = view ? await transferAccess(tx, view, callerId) : null
  if (!locked || !view || !access?.visible) throw notFound('No such transfer.')
  return { locked, view, role: access.role }
}

/** `GET /transfers/{id}`: a transfer the caller may see (`canSeeTransfer`), else 404. */
export async function getTransfer(
  db: Db,
  id: string,
  userId: string,
  now: Date,
  publicUrl: string,
): Promise<Transfer> {
  const row = await findTransferRow(db, id)
  const access = row ? await transferAccess(db, row, userId) : null
  if (!row || !access?.visible) throw notFound('No such transfer.')
  // Stryker disable next-line ArrayDeclaration: visible means a membership (recipient or reader), so a role
  const roles = new Map(access.role ? [[row.transfer.organizationId, access.role]] : [])
  return toTransfer(db, row, userId, now, publicUrl, roles)
}
