import { and, eq, inArray, max } from 'drizzle-orm'
import type { Handover } from '../../../contract/handover.ts'
import {
  checkOfferTime,
  checkSignedPair,
  type HandoverRefusal,
  type SignedPair,
} from '../../../contract/handover-check.ts'
import { offerIdOf, parseOffer, signedCode } from '../../../contract/handover-codes.ts'
import { HANDOVER_CUSTODY_REASON } from '../../../contract/keychains.ts'
import { inWindow } from '../../../contract/transfer-state.ts'
import type { Db } from '../../db/client.ts'
import {
  custodyLog,
  handovers,
  keychains,
  memberships,
  organizations,
  transferPickups,
  transfers,
  users,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { forbidden, notFound } from '../../http/errors.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { displayName } from '../../shared/person.ts'
import { OFF_THE_HOOK } from '../../shared/places.ts'
import { hasTransferOut } from '../../shared/transfer-conditions.ts'
import { devicesOf, toKeyRecord } from '../devices/service.ts'
import { appendEvent } from '../events/append.ts'
import { appendCustody } from '../keychains/custody.ts'
import { noticeJob } from '../notices/job.ts'
import { handoverNoticeJobs } from './notices.ts'
import { handoverRefused } from './refusals.ts'
import { findHandover } from './view.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'config'>

/** The custody log's reason of a change made by a handover. */

export type HandoverSubmission = {
  organizationId: string
  callerId: string
  offer: string
  acceptance: string
}

/**
 * `POST /handovers`: a signed offer and its acceptance, from the giver's phone or the receiver's, whichever syncs
 * first. Answers `created: true` for the first arrival of an applied pair, `false` for the same pair again; a
 * refusal throws 409 `handover_refused` (kept and logged when the server's records decided it).
 *
 * Order: a code that is no offer is `malformed`; an offer of another organization is a 404; a caller who is
 * neither of its people a 403; a pair the server has had answers as it did then. Then the codes and the device
 * keys (`checkSignedPair`) and the server's clock (`checkOfferTime`), refused without a trace; then, under the
 * keychain's row lock, the server's records (`decide`).
 */
export async function submitHandover(
  deps: Deps,
  input: HandoverSubmission,
): Promise<{ handover: Handover; created: boolean }> {
  const { db } = deps.database
  const now = deps.clock.now()
  const parsed = parseOffer(input.offer)
  if (!parsed) throw handoverRefused('malformed')
  const offer = parsed.value
  if (offer.organizationId !== input.organizationId) throw notFound('No such organization for this offer.')
  if (input.callerId !== offer.giverId && input.callerId !== offer.receiverId) throw forbidden()
  const known = await findHandover(db, input.organizationId, await offerIdOf(parsed.text))
  if (known) return answerKnown(known)
  const keys = new Map(
    (await devicesOf(db, [offer.giverDeviceId, offer.receiverDeviceId])).map((row) => [
      row.id,
      toKeyRecord(row),
    ]),
  )
  const checked = await checkSignedPair(input.offer, input.acceptance, (id) => keys.get(id))
  if (!checked.ok) throw handoverRefused(checked.reason)
  // An acceptance dated where no calendar reaches cannot be kept (the codes allow 16 digits).
  if (Number.isNaN(new Date(checked.value.acceptance.value.at).getTime())) throw handoverRefused('malformed')
  const late = checkOfferTime(offer.at, now.getTime())
  if (late) throw handoverRefused(late)

  const outcome = await db.transaction((tx) =>
    decide(tx, { pair: checked.value, callerId: input.callerId, now, deps }),
  )
  const handover = await findHandover(db, input.organizationId, checked.value.offerId)
  // Stryker disable next-line all: the row was written or found in the transaction that just committed
  if (!handover) throw notFound('No such handover.')
  if (outcome === 'known') return answerKnown(handover)
  if (handover.status === 'REFUSED') throw handoverRefused(handover.reason!, handover)
  return { handover, created: true }
}

function answerKnown(handover: Handover): { handover: Handover; created: false } {
  if (handover.status === 'REFUSED') throw handoverRefused(handover.reason!, handover)
  return { handover, created: false }
}

type Decision = { reason: HandoverRefusal } | { reason: null; transferId: string | null }

/**
 * In one transaction with the keychain's row locked (custody moves one change at a time): the same pair arrived
 * meanwhile (`known`), or the handover is applied or refused for a reason of the records, kept, and logged.
 */
async function decide(
  tx: Db,
  input: { pair: SignedPair; callerId: string; now: Date; deps: Pick<AppDeps, 'config'> },
): Promise<'known' | 'decided'> {
  const { pair, now } = input
  const offer = pair.offer.value
  const [keychain] = await tx
    .select({
      id: keychains.id,
      name: keychains.name,
      custodianId: keychains.custodianId,
      deletedAt: keychains.deletedAt,
    })
    .from(keychains)
    .where(and(eq(keychains.id, offer.keychainId), eq(keychains.organizationId, offer.organizationId)))
    .for('update')
  // The other phone's copy of this pair, committed while this one waited for the lock.
  const [twin] = await tx.select({ id: handovers.id }).from(handovers).where(eq(handovers.id, pair.offerId))
  if (twin) return 'known'

  const present = keychain && !keychain.deletedAt ? keychain : undefined
  const decision = present ? await judge(tx, present, offer) : { reason: 'keychain_gone' as const }
  const at = new Date(Math.min(offer.at, now.getTime()))
  if (present && decision.reason === null) {
    await tx
      .update(keychains)
      .set({ custodianId: offer.receiverId, updatedAt: now, ...OFF_THE_HOOK })
      .where(eq(keychains.id, present.id))
    await appendCustody(tx, {
      keychainId: present.id,
      byUserId: offer.giverId,
      fromUserId: offer.giverId,
      toUserId: offer.receiverId,
      reason: HANDOVER_CUSTODY_REASON,
      at,
    })
    if (decision.transferId) {
      await tx
        .update(transfers)
        .set({ status: 'TRANSFERRED', previousCustodianId: offer.giverId, pickedUpAt: at })
        .where(eq(transfers.id, decision.transferId))
      await tx.insert(transferPickups).values({
        transferId: decision.transferId,
        kind: 'PICKUP',
        byUserId: offer.receiverId,
        clientTime: new Date(offer.at),
        serverTime: now,
        fromQueue: true,
      })
      // Told as any pickup is (the transfer's authorizer and managers, by mail).
      await enqueueJobs(tx, [
        noticeJob(
          {
            kind: 'transfer.picked_up',
            transferId: decision.transferId,
            actorId: offer.receiverId,
            at: at.toISOString(),
          },
          { now, organizationId: offer.organizationId },
        ),
      ])
    }
  }
  const names = await namesOf(tx, [offer.giverId, offer.receiverId])
  const codes = {
    handoverId: pair.offerId,
    offer: signedCode(pair.offer.text, pair.offer.signature),
    acceptance: signedCode(pair.acceptance.text, pair.acceptance.signature),
    sentById: input.callerId,
  }
  const transferId = decision.reason === null ? decision.transferId : null
  const [stored] = await tx
    .insert(handovers)
    .values({
      id: pair.offerId,
      organizationId: offer.organizationId,
      keychainId: offer.keychainId,
      keychainName: keychain?.name ?? '',
      status: decision.reason === null ? 'APPLIED' : 'REFUSED',
      reason: decision.reason,
      giverId: offer.giverId,
      giverName: names.get(offer.giverId) ?? '',
      giverDeviceId: offer.giverDeviceId,
      receiverId: offer.receiverId,
      receiverName: names.get(offer.receiverId) ?? '',
      receiverDeviceId: offer.receiverDeviceId,
      offer: codes.offer,
      acceptance: codes.acceptance,
      offeredAt: new Date(offer.at),
      acceptedAt: new Date(pair.acceptance.value.at),
      receivedAt: now,
      sentById: input.callerId,
      transferId,
    })
    // A refusal decided without the keychain's lock (it is gone) may meet its twin here.
    .onConflictDoNothing({ target: handovers.id })
    .returning({ id: handovers.id })
  if (!stored) return 'known'
  await enqueueJobs(
    tx,
    await handoverNoticeJobs(
      tx,
      input.deps,
      {
        id: pair.offerId,
        organizationId: offer.organizationId,
        keychainName: keychain?.name ?? '',
        giverId: offer.giverId,
        giverName: names.get(offer.giverId) ?? '',
        receiverId: offer.receiverId,
        receiverName: names.get(offer.receiverId) ?? '',
        applied: decision.reason === null,
        sentById: input.callerId,
      },
      now,
    ),
  )
  await appendEvent(tx, {
    organizationId: offer.organizationId,
    kind: decision.reason === null ? 'keychain.handed_over' : 'handover.refused',
    actorId: offer.giverId,
    serverTime: now,
    clientTime: new Date(offer.at),
    // Made offline by two phones, whichever sent it.
    fromQueue: true,
    keychainIds: present ? [present.id] : [],
    transferIds: transferId ? [transferId] : [],
    payload:
      decision.reason === null
        ? { ...codes, custodian: { from: offer.giverId, to: offer.receiverId }, transferId }
        : { ...codes, reason: decision.reason, giverId: offer.giverId, receiverId: offer.receiverId },
  })
  return 'decided'
}

/** The server's records against a genuinely signed offer, in the order the refusals are told. */
async function judge(
  tx: Db,
  keychain: { id: string; custodianId: string | null },
  offer: SignedPair['offer']['value'],
): Promise<Decision> {
  if (await hasTransferOut(tx, keychain.id)) return { reason: 'on_transfer' }
  const [last] = await tx
    .select({ seq: max(custodyLog.seq) })
    .from(custodyLog)
    .where(eq(custodyLog.keychainId, keychain.id))
  if (Number(last?.seq ?? 0) !== offer.base) return { reason: 'conflict' }
  if (keychain.custodianId !== offer.giverId) return { reason: 'not_custodian' }
  const transferId = await receiverAllowed(tx, offer)
  if (transferId === false) return { reason: 'receiver_not_allowed' }
  return { reason: null, transferId }
}

/**
 * Whether the receiver may be handed the keychain: an ACTIVE member of a role other than CONTACT (null: a plain
 * handover); a CONTACT when the organization allows it and a SCHEDULED transfer of this keychain to them has its
 * window open at the offer's time (that transfer's id: the handover is its pickup); else false.
 */
async function receiverAllowed(tx: Db, offer: SignedPair['offer']['value']): Promise<string | null | false> {
  const [membership] = await tx
    .select({
      role: memberships.role,
      status: memberships.status,
      receivers: organizations.handoverReceivers,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(eq(memberships.organizationId, offer.organizationId), eq(memberships.userId, offer.receiverId)),
    )
  if (membership?.status !== 'ACTIVE') return false
  if (membership.role !== 'CONTACT') return null
  if (membership.receivers !== 'MEMBERS_AND_CONTACTS') return false
  const scheduled = await tx
    .select({ id: transfers.id, startsAt: transfers.startsAt, endsAt: transfers.endsAt })
    .from(transfers)
    .where(
      and(
        eq(transfers.keychainId, offer.keychainId),
        eq(transfers.recipientId, offer.receiverId),
        eq(transfers.status, 'SCHEDULED'),
      ),
    )
  const open = scheduled.find((transfer) => inWindow(transfer, new Date(offer.at)))
  return open?.id ?? false
}

async function namesOf(tx: Db, ids: string[]): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, ids))
  return new Map(rows.map((row) => [row.id, displayName(row)]))
}
