import { Trans, useLingui } from '@lingui/react/macro'
import type { Subscription } from '../../../contract/commerce.ts'
import { formatDate } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Card } from '../../ui/Card.tsx'

/** The current plan at the top of the plans page: its period, this month's transfers as a bar, the renewal. */
export function PlanUsage({ subscription }: { subscription: Subscription }) {
  const { t } = useLingui()
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
      <meter
        aria-label={t`Transfers used this month`}
        min={0}
        max={Math.max(allowed, 1)}
        value={Math.min(used, allowed)}
        low={allowed * 0.8}
        high={allowed}
        optimum={0}
        className="h-3 w-full"
      >
        {t`${used} of ${allowed}`}
      </meter>
      <p className="text-sm text-slate-700">
        <Trans>
          {used} of {allowed} transfers used this month; the allowance renews on {renews}.
        </Trans>
      </p>
    </Card>
  )
}
