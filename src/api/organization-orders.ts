import { queryOptions } from '@tanstack/react-query'
import { orderEndpoints } from '../../contract/endpoints/orders.ts'
import { call } from '../lib/call.ts'

// Apart from organizations.ts, which the /app layout loads: only the organization's page carries the order table.

/** An organization's orders, newest first; under the organization's key, so refreshing it refreshes them. */
export const organizationOrdersQuery = (id: string) =>
  queryOptions({
    queryKey: ['organizations', id, 'orders'] as const,
    queryFn: () => call(orderEndpoints.ofOrganization, { params: { id } }),
  })
