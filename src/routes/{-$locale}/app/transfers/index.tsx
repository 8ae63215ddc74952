import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import {
  SORT_ORDERS,
  TRANSFER_QUICK_FILTERS,
  TRANSFER_SORTS,
  TransferStatusSchema,
} from '../../../../../contract/transfers.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { TransferListScreen } from '../../../../features/transfers/TransferListScreen.tsx'

/** An unknown filter value in a shared link is dropped rather than failing the page. */
const SearchSchema = v.object({
  status: v.optional(v.fallback(TransferStatusSchema, undefined as never)),
  expired: v.optional(v.fallback(v.boolean(), undefined as never)),
  when: v.optional(v.fallback(v.picklist(TRANSFER_QUICK_FILTERS), undefined as never)),
  sort: v.optional(v.fallback(v.picklist(TRANSFER_SORTS), undefined as never)),
  order: v.optional(v.fallback(v.picklist(SORT_ORDERS), undefined as never)),
})

export const Route = createFileRoute('/{-$locale}/app/transfers/')({
  validateSearch: SearchSchema,
  component: Transfers,
})

function Transfers() {
  const filter = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <RequireOrganization>
      {(organizationId) => (
        <TransferListScreen
          key={[organizationId, filter.status, filter.expired, filter.when, filter.sort, filter.order].join(
            ':',
          )}
          organizationId={organizationId}
          filter={filter}
          onFilterChange={(next) => void navigate({ search: next, replace: true })}
        />
      )}
    </RequireOrganization>
  )
}
