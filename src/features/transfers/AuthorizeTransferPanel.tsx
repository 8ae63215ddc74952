import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useState } from 'react'
import type { Member } from '../../../contract/organizations.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { subscriptionQuery } from '../../api/subscriptions.ts'
import { formatDate } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { TransferForm } from './TransferForm.tsx'

// Only an organization without a plan sees it.
const SubscriptionRequiredBanner = lazy(() =>
  import('../../ui/SubscriptionRequiredBanner.tsx').then((module) => ({
    default: module.SubscriptionRequiredBanner,
  })),
)

/**
 * The way to authorize a transfer of one keychain: the subscription-required banner without a plan, the
 * month's allowance with one (and nothing more to fill in once it is used up), then the form.
 */
export function AuthorizeTransferPanel({
  organizationId,
  keychainId,
  custodianId,
  members,
  timeZone,
  onCreated,
  onCancel,
}: {
  organizationId: string
  keychainId: string
  custodianId: string | null
  members: Member[]
  timeZone: string
  onCreated: (transfer: Transfer) => void
  onCancel?: () => void
}) {
  const href = useHref()
  const locale = useLocale()
  const [missing, setMissing] = useState(false)
  const subscription = useQuery({ ...subscriptionQuery(organizationId), refetchOnMount: 'always' })
  if (subscription.isPending) return <LoadingState label={<Trans>Checking the subscription…</Trans>} />
  if (subscription.isError)
    return (
      <ErrorState
        message={<Trans>The subscription could not be checked.</Trans>}
        onRetry={() => void subscription.refetch()}
      />
    )
  const plan = subscription.data
  if (missing || plan?.status !== 'ACTIVE')
    return (
      <Suspense fallback={null}>
        <SubscriptionRequiredBanner plansHref={href('/app/plans')} />
      </Suspense>
    )

  const used = plan.transfersUsedThisMonth
  const allowance = plan.transfersPerMonth
  const renews = formatDate(plan.allowanceRenewsAt, locale, timeZone)
  const usedUp = used >= allowance
  return (
    <div className="flex flex-col gap-4">
      <p
        className={
          usedUp ? 'rounded-lg bg-amber-50 p-3 font-medium text-amber-950' : 'text-sm text-slate-700'
        }
      >
        {usedUp ? (
          <Trans>
            All {allowance} transfers of this month are used. The allowance renews on {renews}.
          </Trans>
        ) : (
          <Trans>
            {used} of {allowance} transfers used this month (plan {plan.planName}).
          </Trans>
        )}
      </p>
      {usedUp ? null : (
        <TransferForm
          keychainId={keychainId}
          members={members}
          custodianId={custodianId}
          timeZone={timeZone}
          onCreated={onCreated}
          onSubscriptionMissing={() => {
            setMissing(true)
            void subscription.refetch()
          }}
          {...(onCancel ? { onCancel } : {})}
        />
      )}
    </div>
  )
}
