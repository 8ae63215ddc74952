import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { FileText } from 'lucide-react'
import { SIGNATURE_BOX } from '../../../contract/receipts.ts'
import { receiptPdfHref, receiptQuery } from '../../api/receipts.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'

/** The handover receipt of a picked-up transfer: who accepted it, when, how, the photo, and its PDF. */
export function ReceiptCard({ transferId }: { transferId: string }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { data: receipt } = useQuery(receiptQuery(transferId))
  if (!receipt) return null
  const accepted = formatDateTime(receipt.acceptedAt, locale)
  const recipient = receipt.recipient.name
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Handover receipt</Trans>
      </h2>
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
          className="aspect-[3/1] w-full max-w-sm rounded-lg border border-slate-200 bg-white"
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
        href={receiptPdfHref(transferId)}
        target="_blank"
        rel="noopener"
        className={buttonClass('secondary', 'self-start')}
      >
        <FileText aria-hidden className="size-4" />
        <Trans>Receipt (PDF)</Trans>
      </a>
    </Card>
  )
}
