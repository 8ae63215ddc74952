import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { ReportScreen, type ReportSearch } from '../../../../features/reports/ReportScreen.tsx'

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/
const month = (value: unknown) => (typeof value === 'string' && MONTH.test(value) ? value : undefined)
const days = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3650 ? value : undefined

/**
 * One route for the list of reports and the four reports (each route costs every page of the app its entry in the
 * route tree: about 0.13 KiB). What a
 * shared link holds that does not fit is dropped: the report then shows its default.
 */
function validateSearch(search: Record<string, unknown>): ReportSearch {
  const fields = {
    person: typeof search.person === 'string' ? search.person : undefined,
    days: days(search.days),
    from: month(search.from),
    to: month(search.to),
  }
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
}

export const Route = createFileRoute('/{-$locale}/app/reports/{-$report}')({
  validateSearch,
  component: Report,
})

function Report() {
  const { report } = Route.useParams()
  const search = Route.useSearch()
  const navigate = Route.useNavigate()
  return (
    <RequireOrganization>
      {(organizationId) => (
        <ReportScreen
          organizationId={organizationId}
          report={report}
          search={search}
          onSearchChange={(next, replace) => void navigate({ search: next, replace })}
        />
      )}
    </RequireOrganization>
  )
}
