import { queryOptions } from '@tanstack/react-query'
import { orderEndpoints } from '../../contract/endpoints/orders.ts'
import { call } from '../lib/call.ts'

// Apart from organizations.ts, which the /app layout loads: only the organization's page carries the order table.

/** Under the organization's key (`organizationKeys.one`): what refreshes the organization refreshes its orders. */
const organizationOrderKeys = {
  list: (organizationId: string) => ['organizations', organizationId, 'orders'] as const,
}

/** An organization's orders, newest first. */
export const organizationOrdersQuery = (id: string) =>
  queryOptions({
    queryKey: organizationOrderKeys.list(id),
    queryFn: () => call(orderEndpoints.ofOrganization, { params: { id } }),
  })
