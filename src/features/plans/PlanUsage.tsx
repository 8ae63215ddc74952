import { Trans } from '@lingui/react/macro'
import type { Subscription } from '../../../contract/commerce.ts'
import { formatDate } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { AllowanceMeter } from '../../ui/AllowanceMeter.tsx'
import { Card } from '../../ui/Card.tsx'

/** The current plan at the top of the plans page: its period, this month's transfers as a bar, the renewal. */
export function PlanUsage({ subscription }: { subscription: Subscription }) {
  const locale = useLocale()
  const used = subscription.transfersUsedThisMonth
  const allowed = subscription.transfersPerMonth
  const until = formatDate(subscription.currentPeriodEnd, locale)
  const renews = formatDate(subscription.allowanceRenewsAt, locale)
  const name = subscription.planName
  return (
    <Card className="mb-6 flex flex-col gap-3">
      <p className="font-semibold text-slate-900" data-testid="current-plan">
        {subscription.billingCycle === 'YEARLY' ? (
          <Trans>
            Your plan: {name}, yearly, until {until}
          </Trans>
        ) : (
          <Trans>
            Your plan: {name}, monthly, until {until}
          </Trans>
        )}
      </p>
      <AllowanceMeter used={used} allowed={allowed} />
      <p className="text-sm text-slate-700">
        <Trans>
          {used} of {allowed} transfers used this month; the allowance renews on {renews}.
        </Trans>
      </p>
    </Card>
  )
}
