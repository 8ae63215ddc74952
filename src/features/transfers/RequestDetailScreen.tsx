import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ScanLine } from 'lucide-react'
import { lazy, Suspense } from 'react'
import { calendarDayIn } from '../../../contract/calendar-day.ts'
import { shiftCalendarDay, type Transfer } from '../../../contract/transfers.ts'
import { transferQuery } from '../../api/transfers.ts'
import { formatCalendarDate, formatCalendarRange, formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AddressText } from '../../ui/AddressText.tsx'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { type AskForMoreTime, ExtensionCard } from './ExtensionCard.tsx'
import { PICKUP_KIND_LABELS, REFUSAL_LABELS } from './labels.ts'
import { TransferStatusBadge } from './TransferStatusBadge.tsx'
import { ExpiryText } from './TransferTable.tsx'

// The receipt of a picked-up transfer, under the details: its code and schemas load when there is one.
const ReceiptCard = lazy(() =>
  import('./ReceiptCard.tsx').then((module) => ({ default: module.ReceiptCard })),
)

/** What the recipient has to do now, in one or two sentences. */
function NextStep({ transfer, onScan }: { transfer: Transfer; onScan: () => void }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const opens = formatCalendarDate(transfer.fromDate, locale)
  const lastDay = formatCalendarDate(shiftCalendarDay(transfer.toDate, -1), locale)
  const dueBack = formatCalendarDate(transfer.toDate, locale)
  const scanButton = (
    <Button onPress={onScan} className="self-start">
      <ScanLine aria-hidden className="size-4" />
      <Trans>Scan the keychain's tag</Trans>
    </Button>
  )
  switch (transfer.status) {
    case 'SCHEDULED':
      if (transfer.expired)
        return (
          <p>
            <Trans>
              The pickup window ended on {lastDay}: this transfer expired without being picked up.
            </Trans>
          </p>
        )
      if (transfer.next === 'PICKUP')
        return (
          <>
            <p>
              <Trans>
                Go to the address below by {lastDay} at the latest, and scan the tag on the keychain to
                confirm you picked it up.
              </Trans>
            </p>
            {scanButton}
          </>
        )
      if (transfer.refusal === 'before_window')
        return (
          <p>
            <Trans>You can pick the keychain up from {opens}, at the address below.</Trans>
          </p>
        )
      return <p>{transfer.refusal ? i18n._(REFUSAL_LABELS[transfer.refusal]) : null}</p>
    case 'TRANSFERRED':
      return (
        <p>
          <Trans>
            You hold the keychain. Bring it back to the address below on {dueBack}; a member of the
            organization confirms the return by scanning its tag.
          </Trans>
        </p>
      )
    case 'RETURNING':
      return transfer.expired ? (
        <p className="font-medium text-red-800">
          <Trans>
            The keychain is overdue since {dueBack}: bring it back to the address below as soon as possible.
          </Trans>
        </p>
      ) : (
        <p>
          <Trans>The keychain is due back today: bring it to the address below.</Trans>
        </p>
      )
    case 'RETURNED':
      return (
        <p>
          <Trans>The keychain has been returned. Thank you!</Trans>
        </p>
      )
    case 'CANCELLED':
      return (
        <p>
          <Trans>The organization cancelled this transfer: there is nothing to pick up.</Trans>
        </p>
      )
  }
}

/** `/app/transfers/requests/{id}`: a transfer addressed to me — keychain, window, pickup address, what to do. */
export function RequestDetailScreen({
  transferId,
  onScan,
  ask,
}: {
  transferId: string
  onScan: (transfer: Transfer) => void
  /** How a request for more time reaches the server: through the device's outbox, composed in by the route. */
  ask: AskForMoreTime
}) {
  const { i18n } = useLingui()
  const queryClient = useQueryClient()
  const locale = useLocale()
  const href = useHref()
  const { data: transfer, isPending, error, refetch } = useQuery(transferQuery(transferId))
  if (isPending) return <LoadingState label={<Trans>Loading the request…</Trans>} />
  if (transfer === undefined)
    return (
      <ErrorState
        message={<Trans>This request could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  const organization = transfer.organizationName
  return (
    <>
      <PageHeader title={transfer.keychain.name} />
      <p className="-mt-4 mb-6">
        <AppLink href={href('/app/transfers/requests')}>
          <Trans>All my requests</Trans>
        </AppLink>
      </p>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <TransferStatusBadge transfer={transfer} />
            <span className="text-sm text-slate-700">
              <ExpiryText transfer={transfer} />
            </span>
          </div>
          <div className="flex flex-col gap-3 text-slate-800">
            <NextStep transfer={transfer} onScan={() => onScan(transfer)} />
          </div>
        </Card>
        <ExtensionCard
          transfer={transfer}
          today={calendarDayIn(Intl.DateTimeFormat().resolvedOptions().timeZone, new Date())}
          ask={ask}
          onAsked={(asked) => queryClient.setQueryData(transferQuery(transferId).queryKey, asked)}
        />
        <Card>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3 text-slate-800">
            <dt className="font-medium text-slate-600">
              <Trans>Organization</Trans>
            </dt>
            <dd>{organization}</dd>
            <dt className="font-medium text-slate-600">
              <Trans>Window</Trans>
            </dt>
            <dd>{formatCalendarRange(transfer.fromDate, transfer.toDate, locale)}</dd>
            <dt className="font-medium text-slate-600">
              <Trans>Pickup address</Trans>
            </dt>
            <dd>
              <AddressText address={transfer.pickupAddress} />
            </dd>
            {transfer.authorizedBy ? (
              <>
                <dt className="font-medium text-slate-600">
                  <Trans>Authorized by</Trans>
                </dt>
                <dd>{personName(transfer.authorizedBy)}</dd>
              </>
            ) : null}
            {transfer.pickups.map((pickup) => (
              <div key={pickup.id} className="contents">
                <dt className="font-medium text-slate-600">{i18n._(PICKUP_KIND_LABELS[pickup.kind])}</dt>
                <dd>
                  {formatDateTime(pickup.clientTime ?? pickup.serverTime, locale)} · {personName(pickup.by)}
                </dd>
              </div>
            ))}
          </dl>
        </Card>
        {transfer.pickups.some((pickup) => pickup.kind === 'PICKUP') ? (
          <Suspense fallback={null}>
            <ReceiptCard transferId={transfer.id} />
          </Suspense>
        ) : null}
      </div>
    </>
  )
}
