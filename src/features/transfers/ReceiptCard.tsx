import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { FileText } from 'lucide-react'
import { type Receipt, SIGNATURE_BOX } from '../../../contract/receipts.ts'
import { receiptPdfHref, receiptQuery } from '../../api/receipts.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'

/** The handover receipt of a picked-up transfer, as a card of its own (the transfer's screen). */
export function ReceiptCard({ transferId }: { transferId: string }) {
  const { data: receipt } = useQuery(receiptQuery(transferId))
  if (!receipt) return null
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Handover receipt</Trans>
      </h2>
      <ReceiptBody receipt={receipt} />
    </Card>
  )
}

/**
 * The receipt under a row of a keychain's transfers, loaded when someone opens it: it says so when the pickup
 * had none (picked up before receipts, or by a member without acceptance).
 */
export function ReceiptPanel({ transferId }: { transferId: string }) {
  const query = useQuery(receiptQuery(transferId))
  if (query.isPending) return <LoadingState label={<Trans>Loading the receipt…</Trans>} />
  if (query.isError)
    return (
      <ErrorState
        message={<Trans>The receipt could not be loaded.</Trans>}
        onRetry={() => void query.refetch()}
      />
    )
  if (!query.data)
    return (
      <p className="text-slate-700">
        <Trans>No receipt was signed at this pickup.</Trans>
      </p>
    )
  return (
    <div className="flex flex-col gap-4">
      <ReceiptBody receipt={query.data} />
    </div>
  )
}

/** Who accepted it, when, how (typed name, signature), the photo, and its PDF. */
function ReceiptBody({ receipt }: { receipt: Receipt }) {
  const { t } = useLingui()
  const locale = useLocale()
  const accepted = formatDateTime(receipt.acceptedAt, locale)
  const recipient = receipt.recipient.name
  return (
    <>
      <p className="text-slate-800" data-testid="receipt-accepted">
        <Trans>
          Accepted by {recipient} on {accepted}
        </Trans>
      </p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3 text-slate-800">
        {receipt.handedOverBy ? (
          <>
            <dt className="font-medium text-slate-600">
              <Trans>Handed over by</Trans>
            </dt>
            <dd>{receipt.handedOverBy.name}</dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-600">
          <Trans>Keys</Trans>
        </dt>
        <dd>{receipt.keys.map((key) => key.name).join(', ') || '—'}</dd>
        {receipt.typedName ? (
          <>
            <dt className="font-medium text-slate-600">
              <Trans>Typed name</Trans>
            </dt>
            <dd>{receipt.typedName}</dd>
          </>
        ) : null}
      </dl>
      {receipt.signature ? (
        <svg
          viewBox={`0 0 ${SIGNATURE_BOX.width} ${SIGNATURE_BOX.height}`}
          role="img"
          aria-label={t`Signature of ${recipient}`}
          className="aspect-[3/1] w-full max-w-sm rounded-lg border border-slate-200 bg-white dark:bg-[#fff]"
        >
          <path
            d={receipt.signature}
            fill="none"
            stroke="#0f172a"
            strokeWidth={3}
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      ) : null}
      {receipt.photo ? (
        <img
          src={receipt.photo}
          alt={t`The keys as handed over`}
          className="max-h-64 w-auto self-start rounded-lg object-contain"
        />
      ) : null}
      <a
        href={receiptPdfHref(receipt.transferId)}
        target="_blank"
        rel="noopener"
        className={buttonClass('secondary', 'self-start')}
      >
        <FileText aria-hidden className="size-4" />
        <Trans>Receipt (PDF)</Trans>
      </a>
    </>
  )
}
