import { queryOptions } from '@tanstack/react-query'
import { orderEndpoints } from '../../contract/endpoints/orders.ts'
import { call } from '../lib/call.ts'
import { organizationKeys } from './organizations.ts'

// Apart from organizations.ts, which the /app layout loads: only the organization's page carries the order table.

/** An organization's orders, newest first. */
export const organizationOrdersQuery = (id: string) =>
  queryOptions({
    queryKey: organizationKeys.orders(id),
    queryFn: () => call(orderEndpoints.ofOrganization, { params: { id } }),
  })
