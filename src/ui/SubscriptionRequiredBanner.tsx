import { Trans } from '@lingui/react/macro'
import { BadgeAlert } from 'lucide-react'
import { AppLink } from './AppLink.tsx'
import { buttonClass } from './Button.tsx'

/** Shown where an action needs a subscription (transfers); leads to the plans. */
export function SubscriptionRequiredBanner({ plansHref }: { plansHref: string }) {
  return (
    <div
      role="status"
      className="flex flex-wrap items-center gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
    >
      <BadgeAlert aria-hidden className="size-6 shrink-0" />
      <p className="flex-1 font-medium">
        <Trans>A subscription plan is required to transfer keychains.</Trans>
      </p>
      <AppLink href={plansHref} className={buttonClass('primary')}>
        <Trans>View plans</Trans>
      </AppLink>
    </div>
  )
}
