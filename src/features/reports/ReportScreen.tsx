import { NotFoundState } from '../../ui/States.tsx'
import { HoldingsReportScreen } from './HoldingsReportScreen.tsx'
import { MonthlyReportScreen } from './MonthlyReportScreen.tsx'
import { OverdueReportScreen } from './OverdueReportScreen.tsx'
import { ReportsScreen } from './ReportsScreen.tsx'
import { UnseenReportScreen } from './UnseenReportScreen.tsx'

export type ReportSearch = { person?: string; days?: number; from?: string; to?: string }

const UNSEEN_DAYS = 30

/** `/app/reports` and `/app/reports/{report}`: the reports, and one of them with its filters kept in the URL. */
export function ReportScreen({
  organizationId,
  report,
  search,
  onSearchChange,
}: {
  organizationId: string
  /** None: the list of reports. */
  report: string | undefined
  search: ReportSearch
  onSearchChange: (search: ReportSearch, replace: boolean) => void
}) {
  switch (report) {
    case 'holdings':
      return (
        <HoldingsReportScreen
          key={organizationId}
          organizationId={organizationId}
          person={search.person}
          onPersonChange={(person) => onSearchChange(person ? { person } : {}, false)}
        />
      )
    case 'overdue':
      return <OverdueReportScreen key={organizationId} organizationId={organizationId} />
    case 'unseen':
      return (
        <UnseenReportScreen
          key={organizationId}
          organizationId={organizationId}
          days={search.days ?? UNSEEN_DAYS}
          onDaysChange={(days) => onSearchChange({ days }, true)}
        />
      )
    case 'monthly':
      return (
        <MonthlyReportScreen
          key={organizationId}
          organizationId={organizationId}
          range={{ from: search.from, to: search.to }}
          onRangeChange={({ from, to }) =>
            onSearchChange({ ...(from ? { from } : {}), ...(to ? { to } : {}) }, true)
          }
        />
      )
    case undefined:
      return <ReportsScreen />
    default:
      return <NotFoundState />
  }
}
