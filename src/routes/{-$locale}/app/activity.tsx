import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { EVENT_KINDS } from '../../../../contract/events.ts'
import { CalendarDateSchema } from '../../../../contract/transfers.ts'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import { ActivityScreen } from '../../../features/activity/ActivityScreen.tsx'

/** An unknown filter value in a shared link is dropped rather than failing the page. */
const SearchSchema = v.object({
  kind: v.optional(v.fallback(v.picklist(EVENT_KINDS), undefined as never)),
  from: v.optional(v.fallback(CalendarDateSchema, undefined as never)),
  to: v.optional(v.fallback(CalendarDateSchema, undefined as never)),
})

export const Route = createFileRoute('/{-$locale}/app/activity')({
  validateSearch: SearchSchema,
  component: Activity,
})

function Activity() {
  const filter = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <RequireOrganization>
      {(organizationId) => (
        <ActivityScreen
          key={`${organizationId}:${filter.kind ?? ''}:${filter.from ?? ''}:${filter.to ?? ''}`}
          organizationId={organizationId}
          filter={filter}
          onFilterChange={(next) => void navigate({ search: next, replace: true })}
        />
      )}
    </RequireOrganization>
  )
}
