import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { FOUND_REPORT_STATUSES } from '../../../../../contract/found-reports.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { FoundReportListScreen } from '../../../../features/found-reports/FoundReportListScreen.tsx'

/**
 * The status is checked by the page, not here: what the route declares loads with every page of the app. An
 * unknown status in a shared link is dropped rather than failing the page.
 */
const SearchSchema = v.object({
  status: v.optional(v.fallback(v.string(), undefined as never)),
})

export const Route = createFileRoute('/{-$locale}/app/found-reports/')({
  validateSearch: SearchSchema,
  component: FoundReports,
})

function FoundReports() {
  const search = Route.useSearch()
  const status = FOUND_REPORT_STATUSES.find((each) => each === search.status)
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <RequireOrganization>
      {(organizationId) => (
        <FoundReportListScreen
          key={`${organizationId}:${status ?? ''}`}
          organizationId={organizationId}
          status={status}
          onStatusChange={(next) => void navigate({ search: { status: next }, replace: true })}
        />
      )}
    </RequireOrganization>
  )
}
