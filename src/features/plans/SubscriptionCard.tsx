import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { subscriptionQuery } from '../../api/subscriptions.ts'
import { formatDate } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Card } from '../../ui/Card.tsx'

/** The organization's plan, its period and the transfers left this month; or the way to choose one. */
export function SubscriptionCard({ organizationId }: { organizationId: string }) {
  const locale = useLocale()
  const href = useHref()
  const { data: subscription, isPending, isError } = useQuery(subscriptionQuery(organizationId))
  if (isPending || isError) return null
  if (subscription?.status !== 'ACTIVE') {
    return (
      <Card className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-slate-800">
          <Trans>No subscription: transfers need a plan.</Trans>
        </p>
        <AppLink href={href('/app/plans')}>
          <Trans>View plans</Trans>
        </AppLink>
      </Card>
    )
  }
  const left = Math.max(0, subscription.transfersPerMonth - subscription.transfersUsedThisMonth)
  const until = formatDate(subscription.currentPeriodEnd, locale)
  const renews = formatDate(subscription.allowanceRenewsAt, locale)
  return (
    <Card className="flex flex-col gap-1">
      <p className="font-semibold text-slate-900" data-testid="subscription">
        <Trans>
          Plan {subscription.planName}, until {until}
        </Trans>
      </p>
      <p className="text-slate-700">
        <Trans>
          {left} of {subscription.transfersPerMonth} transfers left this month (renews on {renews}).
        </Trans>
      </p>
    </Card>
  )
}
