import { Trans } from '@lingui/react/macro'
import type { DashboardOrganization } from '../../../contract/dashboard.ts'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { AllowanceCard } from './AllowanceCard.tsx'
import { LeaversCard } from './LeaversCard.tsx'
import { MyKeychains } from './MyKeychains.tsx'
import { ReturnsList } from './ReturnsList.tsx'
import { SetupChecklist } from './SetupChecklist.tsx'
import { StocktakesDue } from './StocktakesDue.tsx'

/**
 * What the dashboard says beside its counts, in their own chunk (asked for with the counts): this month's allowance (for who authorizes
 * transfers), the setup checklist (for an admin, until every step is done), and the caller's own keychains (a
 * member always, anyone else when they hold some), the places whose stocktake is due (for who starts them), and
 * the people who left with keys (for who reads the reports). A
 * dashboard mirrored before these existed shows none.
 */
export default function DashboardDetails({ figures }: { figures: DashboardOrganization }) {
  const ability = useAbility()
  const { allowance, setup, mine } = figures
  return (
    <>
      {ability.can('create', 'transfer') && allowance !== undefined ? (
        <AllowanceCard allowance={allowance} canChoosePlan={ability.can('manage', 'subscription')} />
      ) : null}
      {ability.can('manage', 'subscription') && setup ? (
        <SetupChecklist setup={setup} organizationId={figures.id} />
      ) : null}
      {mine && (mine.total > 0 || !ability.can('update', 'keychain')) ? <MyKeychains mine={mine} /> : null}
      {ability.can('create', 'stocktake') ? <StocktakesDue organizationId={figures.id} /> : null}
      {ability.can('read', 'activity') ? <LeaversCard organizationId={figures.id} /> : null}
    </>
  )
}

/** The keychains due back today and the late ones, among the counts (this chunk comes with them). */
export function DueBack({ figures }: { figures: DashboardOrganization }) {
  const href = useHref()
  const list = (query: `?${string}`) => href(`/app/transfers${query}`)
  return (
    <>
      <ReturnsList
        title={<Trans>Due back today</Trans>}
        items={figures.returns.dueToday}
        total={figures.active.returning}
        all={list('?status=RETURNING&expired=false')}
        late={false}
      />
      <ReturnsList
        title={<Trans>Late</Trans>}
        items={figures.returns.overdue}
        total={figures.expired.returning}
        all={list('?status=RETURNING&expired=true')}
        late
      />
    </>
  )
}
