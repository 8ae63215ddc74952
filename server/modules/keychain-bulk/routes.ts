import { keychainBulkEndpoints } from '../../../contract/endpoints/keychain-bulk.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { idempotentInOrganization } from '../../http/organization-write.ts'
import { inRequestLanguage } from '../../http/request-locale.ts'
import { changeCustodians } from './custodian.ts'
import { deleteKeychains } from './deletion.ts'
import { authorizeTransfers } from './transfers.ts'

const SELECTION =
  'the keychains named by `ids` (at most 500; one not of the organization: 404, nothing changed) or all matching `filter` (`q`, `custodianId`; over 500: 400 `bulk_selection_too_large`)'

/** Actions on many keychains at once: one transaction each (all or nothing), once per Idempotency-Key. */
export function keychainBulkRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...keychainBulkEndpoints.custodian,
      summary: `Change the custodian of ${SELECTION}, with a reason: one custody entry and one event per keychain changed`,
      access: inSelectedOrganization('update__keychain'),
      responses: {
        200: { description: 'How many changed, how many already had that custodian' },
        400: {
          description:
            '`validation_failed`: bad selection or custodian not a member; `bulk_selection_too_large`: too many keychains',
        },
        409: { description: 'One of them is out on a transfer: nothing changed' },
        422: { description: 'The Idempotency-Key was used for another request' },
      },
    },
    (c, input) =>
      idempotentInOrganization(
        c,
        db,
        { ...input, now: deps.clock.now() },
        { name: 'POST /keychain-bulk/custodian-changes', status: 200 },
        (tx, { organizationId, userId, body, now }) =>
          changeCustodians(tx, {
            organizationId,
            actorId: userId,
            selection: { ids: body.ids, filter: body.filter },
            custodianId: body.custodianId,
            reason: body.reason,
            now,
          }),
      ),
  )

  api.route(
    {
      ...keychainBulkEndpoints.deletion,
      summary: `Delete ${SELECTION}, with their keys (their tags become free): one event per keychain`,
      access: inSelectedOrganization('delete__keychain'),
      responses: {
        200: { description: 'How many were deleted' },
        400: {
          description: '`validation_failed`: bad selection; `bulk_selection_too_large`: too many keychains',
        },
        409: { description: 'One of them has an active transfer: nothing deleted' },
        422: { description: 'The Idempotency-Key was used for another request' },
      },
    },
    (c, input) =>
      idempotentInOrganization(
        c,
        db,
        { ...input, now: deps.clock.now() },
        { name: 'POST /keychain-bulk/deletions', status: 200 },
        (tx, { organizationId, userId, body, now }) =>
          deleteKeychains(tx, {
            organizationId,
            actorId: userId,
            selection: { ids: body.ids, filter: body.filter },
            now,
          }),
      ),
  )

  api.route(
    {
      ...keychainBulkEndpoints.transfers,
      summary: `Authorize a transfer of each of ${SELECTION} to one recipient for the same dates: one transfer, mail and event per keychain`,
      access: inSelectedOrganization('create__transfer'),
      responses: {
        201: { description: 'How many transfers were authorized, and their ids' },
        400: {
          description:
            '`validation_failed`: bad selection or dates; `bulk_selection_too_large`: too many keychains',
        },
        402: {
          description:
            '`subscription_required`, or `transfer_allowance_exceeded` when the month has room for fewer than selected (nothing authorized)',
        },
        409: { description: 'An overlap, or the recipient already holds one of them: nothing authorized' },
        422: { description: 'The Idempotency-Key was used for another request' },
      },
    },
    async (c, input) => {
      const response = await idempotentInOrganization(
        c,
        db,
        { ...input, now: deps.clock.now() },
        { name: 'POST /keychain-bulk/transfers', status: 201 },
        (tx, { organizationId, body, now }) =>
          authorizeTransfers(deps, tx, {
            organizationId,
            actor: inRequestLanguage(c, input.session.user),
            selection: { ids: body.ids, filter: body.filter },
            recipient: body.recipient,
            fromDate: body.fromDate,
            toDate: body.toDate,
            now,
          }),
      )
      deps.jobs.nudge()
      return response
    },
  )
}
