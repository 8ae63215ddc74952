import { queryOptions } from '@tanstack/react-query'
import { transferEndpoints } from '../../contract/endpoints/transfers.ts'
import { call } from '../lib/call.ts'

/**
 * A member's page: what they hold now and their transfers. Under the transfers' key, so a pickup, a return or a
 * cancellation anywhere refreshes it too.
 */
const memberPageKeys = {
  holdings: (organizationId: string, userId: string, cursor: string | null) =>
    ['transfers', organizationId, 'member', userId, 'holdings', cursor] as const,
  transfers: (organizationId: string, userId: string, cursor: string | null) =>
    ['transfers', organizationId, 'member', userId, 'list', cursor] as const,
}

/** Who the member is and the keychains they hold now, by name, with the day each transfer brings it back. */
export const memberHoldingsQuery = (organizationId: string, userId: string, cursor: string | null) =>
  queryOptions({
    queryKey: memberPageKeys.holdings(organizationId, userId, cursor),
    queryFn: () =>
      call(transferEndpoints.memberHoldings, {
        params: { id: userId },
        query: { cursor: cursor ?? undefined },
      }),
  })

/** The transfers addressed to the member, newest window first. */
export const memberTransfersQuery = (organizationId: string, userId: string, cursor: string | null) =>
  queryOptions({
    queryKey: memberPageKeys.transfers(organizationId, userId, cursor),
    queryFn: () =>
      call(transferEndpoints.ofMember, { params: { id: userId }, query: { cursor: cursor ?? undefined } }),
  })
