import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { dashboardChartsQuery } from '../../api/dashboard-charts.ts'
import { Button } from '../../ui/Button.tsx'
import { CHART_CARD_CLASS } from './card-heights.ts'
import { KeychainStatusChart } from './KeychainStatusChart.tsx'
import { WeeklyTransfersChart } from './WeeklyTransfersChart.tsx'

/**
 * The dashboard's two charts, in their own chunk, asked for once the counts are shown: keychains by status and
 * transfers per week. Each keeps its card's height while loading, and says when it cannot load (offline too).
 */
export default function DashboardCharts({ organizationId }: { organizationId: string }) {
  const { data, isPending, isError, refetch } = useQuery(dashboardChartsQuery(organizationId))
  if (isPending || isError)
    return (
      <>
        {[0, 1].map((index) => (
          <div key={index} className={`${CHART_CARD_CLASS} flex items-center justify-center`}>
            {isError ? (
              <div className="flex flex-col items-center gap-2 text-sm text-slate-700">
                <p>
                  <Trans>The chart could not be loaded.</Trans>
                </p>
                <Button variant="secondary" onPress={() => void refetch()}>
                  <Trans>Try again</Trans>
                </Button>
              </div>
            ) : (
              <p role="status" className="text-sm text-slate-600">
                <Trans>Loading the chart…</Trans>
              </p>
            )}
          </div>
        ))}
      </>
    )
  return (
    <>
      <div className={CHART_CARD_CLASS}>
        <KeychainStatusChart figures={data.keychainsByStatus} />
      </div>
      <div className={CHART_CARD_CLASS}>
        <WeeklyTransfersChart weeks={data.transfersPerWeek} />
      </div>
    </>
  )
}
