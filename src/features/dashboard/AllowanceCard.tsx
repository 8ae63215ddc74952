import { Trans } from '@lingui/react/macro'
import { useId } from 'react'
import type { DashboardAllowance } from '../../../contract/dashboard.ts'
import { formatDate } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AllowanceMeter } from '../../ui/AllowanceMeter.tsx'
import { AppLink } from '../../ui/AppLink.tsx'
import { ALLOWANCE_CARD_CLASS } from './card-heights.ts'

/**
 * This month's transfers against the plan's allowance, as on the plans page; without a plan in force, what to do
 * (choosing one is for those who may).
 */
export function AllowanceCard({
  allowance,
  canChoosePlan,
}: {
  allowance: DashboardAllowance | null
  canChoosePlan: boolean
}) {
  const id = useId()
  const href = useHref()
  const locale = useLocale()
  return (
    <section aria-labelledby={id} className={ALLOWANCE_CARD_CLASS}>
      <h2 id={id} className="font-semibold text-slate-900">
        <Trans>Transfers this month</Trans>
      </h2>
      {allowance ? (
        <AllowanceFigures allowance={allowance} renews={formatDate(allowance.renewsAt, locale)} />
      ) : (
        <>
          <p className="text-sm text-slate-700">
            <Trans>No plan in force: transfers cannot be authorized.</Trans>
          </p>
          {canChoosePlan ? (
            <AppLink
              href={href('/app/plans')}
              className="inline-flex min-h-11 items-center self-start text-sm font-medium text-brand-800"
            >
              <Trans>Choose a plan</Trans>
            </AppLink>
          ) : null}
        </>
      )}
    </section>
  )
}

function AllowanceFigures({ allowance, renews }: { allowance: DashboardAllowance; renews: string }) {
  const used = allowance.used
  const allowed = allowance.limit
  return (
    <>
      <AllowanceMeter used={used} allowed={allowed} />
      <p className="text-sm text-slate-700">
        <Trans>
          {used} of {allowed} transfers used this month; the allowance renews on {renews}.
        </Trans>
      </p>
    </>
  )
}
