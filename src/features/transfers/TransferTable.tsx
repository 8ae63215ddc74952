import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { shiftCalendarDay, type Transfer } from '../../../contract/transfers.ts'
import { formatCalendarDate, formatCalendarRange } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { TransferStatusBadge } from './TransferStatusBadge.tsx'

/**
 * The day that matters next, in calendar days of the organization (never the device's clock): the last day of
 * the pickup window, the day it is due back, or since when it is overdue.
 */
export function ExpiryText({ transfer }: { transfer: Transfer }) {
  const locale = useLocale()
  const lastPickupDay = formatCalendarDate(shiftCalendarDay(transfer.toDate, -1), locale)
  const dueBack = formatCalendarDate(transfer.toDate, locale)
  switch (transfer.status) {
    case 'SCHEDULED':
      return transfer.expired ? (
        <Trans>Not picked up by {lastPickupDay}</Trans>
      ) : (
        <Trans>Pickup until {lastPickupDay} included</Trans>
      )
    case 'TRANSFERRED':
      return <Trans>Due back on {dueBack}</Trans>
    case 'RETURNING':
      return transfer.expired ? (
        <Trans>Overdue since {dueBack}</Trans>
      ) : (
        <Trans>Due back today, {dueBack}</Trans>
      )
    default:
      return null
  }
}

/**
 * Transfers as rows with their window, status and expiry. `view` says what else a row names: the keychain and
 * recipient (an organization's list), the recipient (a keychain's authorizations), or the keychain and
 * organization (my requests). `rowHref` links the title, `recipientHref` the recipient, `actions` adds buttons to a row, `details` a part
 * across the row's whole width under it.
 */
export function TransferTable({
  transfers,
  view,
  rowHref,
  recipientHref,
  actions,
  details,
}: {
  transfers: Transfer[]
  view: 'organization' | 'keychain' | 'requests'
  rowHref?: ((transfer: Transfer) => string) | undefined
  /** Links the recipient's name to their page (an organization's list, for those who read members). */
  recipientHref?: ((transfer: Transfer) => string) | undefined
  actions?: (transfer: Transfer) => ReactNode
  details?: (transfer: Transfer) => ReactNode
}) {
  const { t } = useLingui()
  const locale = useLocale()
  return (
    <ul
      aria-label={t`Transfers`}
      className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      {transfers.map((transfer) => {
        const recipient = personName(transfer.recipient)
        const organization = transfer.organizationName
        const title = view === 'keychain' ? recipient : transfer.keychain.name
        return (
          <li key={transfer.id} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
            <div className="min-w-48 flex-1">
              <p className="font-semibold text-slate-900">
                {rowHref ? (
                  <AppLink href={rowHref(transfer)} className="hover:underline">
                    {title}
                  </AppLink>
                ) : (
                  title
                )}
              </p>
              <p className="text-sm text-slate-700">
                {view === 'organization' && recipientHref ? (
                  <Trans>
                    To{' '}
                    <AppLink href={recipientHref(transfer)} className="underline-offset-4 hover:underline">
                      {recipient}
                    </AppLink>
                  </Trans>
                ) : view === 'organization' ? (
                  <Trans>To {recipient}</Trans>
                ) : view === 'requests' ? (
                  <Trans>From {organization}</Trans>
                ) : title === transfer.recipient.email ? null : (
                  transfer.recipient.email
                )}
                {view === 'keychain' && title === transfer.recipient.email ? null : ' · '}
                {formatCalendarRange(transfer.fromDate, transfer.toDate, locale)}
              </p>
            </div>
            <div className="flex flex-col items-start gap-1">
              <TransferStatusBadge transfer={transfer} />
              <span className="text-xs text-slate-600">
                <ExpiryText transfer={transfer} />
              </span>
            </div>
            {actions ? <div className="flex gap-2">{actions(transfer)}</div> : null}
            {details?.(transfer)}
          </li>
        )
      })}
    </ul>
  )
}
