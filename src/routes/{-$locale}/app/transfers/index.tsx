import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { TransferStatusSchema } from '../../../../../contract/transfers.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { TransferListScreen } from '../../../../features/transfers/TransferListScreen.tsx'

/** An unknown filter value in a shared link is dropped rather than failing the page. */
const SearchSchema = v.object({
  status: v.optional(v.fallback(TransferStatusSchema, undefined as never)),
  expired: v.optional(v.fallback(v.boolean(), undefined as never)),
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
          key={`${organizationId}:${filter.status ?? ''}:${String(filter.expired ?? '')}`}
          organizationId={organizationId}
          filter={filter}
          onFilterChange={(next) => void navigate({ search: next, replace: true })}
        />
      )}
    </RequireOrganization>
  )
}
