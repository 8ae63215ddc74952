import type * as v from 'valibot'
import { transferEndpoints } from '../../../contract/endpoints/transfers.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { ScanHeadersSchema } from '../../../contract/scans.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import type { UserRow } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { idempotent, idempotentResponse } from '../../http/idempotency.ts'
import { inRequestLanguage } from '../../http/request-locale.ts'
import { calendarDayIn, startOfDayIn } from '../../shared/time-zones.ts'
import { type TransferViewRow, toTransfer, withKeychainTags } from '../../shared/transfer-view.ts'
import { findKeychain } from '../keychains/service.ts'
import { photoBytes } from '../receipts/photo.ts'
import { receiptRoutes } from '../receipts/routes.ts'
import { checkedAcceptance } from '../receipts/service.ts'
import { timeZoneOf } from '../subscriptions/service.ts'
import { chaseTransfer } from './chase.ts'
import { decideExtension, requestExtension } from './extensions.ts'
import {
  listKeychainTransfers,
  listOrganizationTransfers,
  listOverlappingTransfers,
  listRequests,
} from './list.ts'
import { type PickupInput, recordPickup } from './pickups.ts'
import { cancelTransfer, createTransfer, getTransfer } from './service.ts'

/** Transfers: authorize, list, cancel, and the pickups (first the recipient's, then the return). */
export function transferRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const { publicUrl } = deps.config
  /** What a list of the selected organization's transfers needs: whose, for whom, at what time. */
  const listing = <Q>(organization: { organizationId: string; role: Role }, userId: string, query: Q) => ({
    organizationId: organization.organizationId,
    caller: { userId, role: organization.role },
    query,
    now: deps.clock.now(),
    publicUrl,
  })

  /**
   * A field action on a transfer (the pickup or return, a request for more time): once per Idempotency-Key,
   * judged with the device's time when replayed from its queue; answers the transfer as the caller sees it (201),
   * and sends at once the mails it enqueued.
   */
  const fieldAction = async (
    caller: { user: UserRow; transferId: string; headers: v.InferOutput<typeof ScanHeadersSchema> },
    idempotency: { request: string; payload: unknown },
    act: (tx: Db, input: PickupInput) => Promise<{ view: TransferViewRow; role: Role | null }>,
  ) => {
    const now = deps.clock.now()
    const { user, headers } = caller
    const answer = await idempotent(
      db,
      { userId: user.id, key: headers['idempotency-key'], ...idempotency, now },
      async (tx) => {
        const { view, role } = await act(tx, {
          caller: user,
          transferId: caller.transferId,
          clientTime: headers['x-client-time'] ? new Date(headers['x-client-time']) : null,
          fromQueue: headers['x-from-queue'] === '1',
          now,
        })
        const roles = new Map(role ? [[view.transfer.organizationId, role]] : [])
        return { status: 201 as const, body: await toTransfer(tx, view, user.id, now, publicUrl, roles) }
      },
    )
    if (!answer.replayed) deps.jobs.nudge()
    return answer
  }

  api.route(
    {
      ...transferEndpoints.ofKeychain,
      summary: "The keychain's transfers, newest window first, paginated by cursor",
      // Every role that reads keychains reads transfers too (a CONTACT reads neither keychains nor this list).
      access: inSelectedOrganization('read__keychain'),
      responses: { 200: { description: 'A page of transfers' } },
    },
    async (c, { organization, session, params, query }) => {
      const keychain = await findKeychain(db, organization.organizationId, params.id)
      return c.json(
        await listKeychainTransfers(db, {
          ...listing(organization, session.user.id, query),
          keychainId: keychain.id,
        }),
        200,
      )
    },
  )

  api.route(
    {
      ...transferEndpoints.create,
      summary:
        'Authorize a transfer of the keychain to a member, or to an address invited as CONTACT; needs an active subscription and counts against the month’s allowance',
      access: inSelectedOrganization('create__transfer'),
      responses: {
        201: { description: 'Authorized (SCHEDULED); the recipient is told by mail' },
        402: { description: '`subscription_required` or `transfer_allowance_exceeded`' },
        409: { description: '`transfer_overlap`, or the recipient already holds the keychain' },
      },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await createTransfer(deps, {
          organizationId: organization.organizationId,
          actor: inRequestLanguage(c, session.user),
          keychainId: params.id,
          transfer: body,
        }),
        201,
      ),
  )

  api.route(
    {
      ...transferEndpoints.overlaps,
      summary:
        'The keychain’s transfers a new one from `fromDate` to `toDate` would overlap: what authorizing it would refuse (409 `transfer_overlap`), said before submitting',
      access: inSelectedOrganization('create__transfer'),
      responses: { 200: { description: 'The transfers in the way (none: the window is free)' } },
    },
    async (c, { organization, session, params, query }) => {
      const keychain = await findKeychain(db, organization.organizationId, params.id)
      const timeZone = await timeZoneOf(db, organization.organizationId)
      const data = await listOverlappingTransfers(db, {
        organizationId: organization.organizationId,
        keychainId: keychain.id,
        startsAt: startOfDayIn(timeZone, query.fromDate),
        endsAt: startOfDayIn(timeZone, query.toDate),
        caller: { userId: session.user.id, role: organization.role },
        now: deps.clock.now(),
        publicUrl,
      })
      return c.json({ data }, 200)
    },
  )

  api.route(
    {
      ...transferEndpoints.list,
      summary:
        "The selected organization's transfers (a CONTACT's: those addressed to them), newest window first; `status`, `expired`, `when` (`today`, `overdue`), `sort` (`start`, `end`) and `order` (`asc`, `desc`)",
      access: inSelectedOrganization('read__transfer'),
      responses: { 200: { description: 'A page of transfers' } },
    },
    async (c, { organization, session, query }) => {
      const input = listing(organization, session.user.id, query)
      // The organization's calendar day, read only when a filter needs it.
      const today =
        query.when === 'today'
          ? calendarDayIn(await timeZoneOf(db, organization.organizationId), input.now)
          : ''
      return c.json(await listOrganizationTransfers(db, { ...input, today }), 200)
    },
  )

  api.route(
    {
      ...transferEndpoints.requests,
      summary:
        'Transfers addressed to the caller in all their organizations, open ones first, newest window first; `open`',
      access: 'signedIn',
      responses: { 200: { description: 'A page of transfers' } },
    },
    async (c, { session, query }) =>
      c.json(
        await listRequests(db, { userId: session.user.id, query, now: deps.clock.now(), publicUrl }),
        200,
      ),
  )

  api.route(
    {
      ...transferEndpoints.one,
      summary:
        'A transfer, for its recipient (in any of their organizations) or a member of its organization who reads transfers',
      access: 'signedIn',
      responses: { 200: { description: 'The transfer' } },
    },
    async (c, { session, params }) =>
      c.json(await getTransfer(db, params.id, session.user.id, deps.clock.now(), publicUrl), 200),
  )

  api.route(
    {
      ...transferEndpoints.cancel,
      summary: 'Cancel a SCHEDULED transfer (its allowance comes back); the recipient is told by mail',
      access: inSelectedOrganization('delete__transfer'),
      responses: {
        200: { description: 'The cancelled transfer (also when it already was: a retry mails no one)' },
        409: {
          description:
            '`invalid_transition` (`allowed: []`): a picked-up or returned transfer cannot be cancelled',
        },
      },
    },
    async (c, { organization, session, params }) =>
      c.json(
        await cancelTransfer(deps, {
          organizationId: organization.organizationId,
          actorId: session.user.id,
          id: params.id,
        }),
        200,
      ),
  )

  api.route(
    {
      ...transferEndpoints.chase,
      summary:
        'Mail the holder of an overdue transfer a reminder now, in their language; one an hour per transfer',
      access: inSelectedOrganization('create__transfer'),
      responses: {
        200: { description: 'The transfer, with `chasedAt`; the mail is on its way' },
        409: {
          description: '`not_overdue`: the keychain is not late (not picked up, returned, or not yet due)',
        },
        429: { description: '`chased_recently` (`retryAt`, `Retry-After`): chased less than an hour ago' },
      },
    },
    async (c, { organization, session, params }) =>
      c.json(
        await chaseTransfer(deps, {
          organizationId: organization.organizationId,
          actor: inRequestLanguage(c, session.user),
          id: params.id,
        }),
        200,
      ),
  )

  api.route(
    {
      ...transferEndpoints.requestExtension,
      summary:
        'The recipient asks to keep the keychain until a later to-date; idempotent by Idempotency-Key (the offline queue replays it)',
      access: 'signedIn',
      responses: {
        201: { description: 'The transfer with its pending `extension`; the managers are mailed' },
        400: { description: '`validation_failed`: the to-date is not after the current one and today' },
        409: { description: '`extension_refused`, with `reason` (`not_recipient`, `closed`, `pending`)' },
        422: { description: 'Idempotency-Key already used for another request' },
      },
    },
    async (c, { session, params, headers, body }) => {
      const answer = await fieldAction(
        { user: inRequestLanguage(c, session.user), transferId: params.id, headers },
        { request: `POST /api/transfers/${params.id}/extensions`, payload: body },
        (tx, input) => requestExtension(tx, { ...input, toDate: body.toDate, publicUrl }),
      )
      return idempotentResponse(c, answer, (stored) => stored as Transfer)
    },
  )

  api.route(
    {
      ...transferEndpoints.decideExtension,
      summary:
        'Approve (the window’s end moves; no transfer is charged) or refuse a request for more time; the holder is mailed',
      access: inSelectedOrganization('create__transfer'),
      responses: {
        200: { description: 'The transfer, with the answered `extension`' },
        409: {
          description:
            '`transfer_overlap` (another transfer of the keychain is in the way), `extension_refused` (`closed`), or `conflict` (answered the other way already)',
        },
      },
    },
    async (c, { organization, session, params, body }) =>
      c.json(
        await decideExtension(deps, {
          organizationId: organization.organizationId,
          actor: inRequestLanguage(c, session.user),
          transferId: params.id,
          extensionId: params.extensionId,
          decision: body.decision,
        }),
        200,
      ),
  )

  api.route(
    {
      ...transferEndpoints.pickup,
      summary:
        'Confirm the pickup (the recipient, with their acceptance: the handover receipt) or the return (a MEMBER or above) of a transfer; idempotent by Idempotency-Key',
      access: 'signedIn',
      responses: {
        201: {
          description: 'The transfer after the move (or the stored answer of the same Idempotency-Key)',
        },
        400: {
          description:
            '`validation_failed` (an acceptance without typed name or signature…), `photo_too_large` (over 300 KB or 1280 px), `photo_invalid` (not a JPEG)',
        },
        409: { description: '`pickup_refused`, with `reason`' },
        422: { description: 'Idempotency-Key already used for another request' },
      },
    },
    async (c, { session, params, headers, body }) => {
      // Checked before anything is written: a photo too large is refused whatever the transfer's state.
      const acceptance = body?.acceptance ? checkedAcceptance(body.acceptance, photoBytes) : null
      const answer = await fieldAction(
        { user: inRequestLanguage(c, session.user), transferId: params.id, headers },
        // The transfer is part of the request: the same key on another transfer is a reuse (422). An empty
        // body hashes as before (null), so keys queued by an older app replay as they were.
        { request: `POST /api/transfers/${params.id}/pickups`, payload: body?.acceptance ? body : null },
        (tx, input) => recordPickup(tx, { ...input, acceptance }),
      )
      return idempotentResponse(c, answer, (stored) => withKeychainTags(stored as Transfer))
    },
  )

  receiptRoutes(api, deps)
}
