import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { orderDetailsQuery } from '../../api/orders.ts'
import { Button } from '../../ui/Button.tsx'
import { QrCode } from '../../ui/QrCode.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'

/** One QR per tag on A4 sheets: 4 columns × 6 rows of 45 mm cells, with the code under each. */
export function PrintTagsScreen({ orderId }: { orderId: string }) {
  const { t } = useLingui()
  const { data, isPending, isError, error, refetch } = useQuery(orderDetailsQuery(orderId))
  if (isPending) return <LoadingState label={<Trans>Loading the order…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The order could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  return (
    <div>
      <style>
        {
          '@page { size: A4; margin: 12mm } @media print { body * { visibility: hidden } .print-sheet, .print-sheet * { visibility: visible } .print-sheet { position: absolute; inset: 0 } }'
        }
      </style>
      <div className="mb-4 flex items-center justify-between print:hidden">
        <h1 className="text-2xl font-bold text-slate-900">
          <Trans>Tags of order {data.order.reference}</Trans>
        </h1>
        <Button onPress={() => window.print()}>
          <Trans>Print</Trans>
        </Button>
      </div>
      <ul aria-label={t`Tags to print`} className="print-sheet grid grid-cols-4 gap-[4mm] bg-white">
        {data.tags.map((tag) => (
          <li
            key={tag.id}
            className="flex h-[45mm] break-inside-avoid flex-col items-center justify-center gap-1 rounded-md"
            style={{ backgroundColor: tag.backgroundColor, color: tag.foregroundColor }}
          >
            <QrCode
              value={tag.url}
              label={tag.code}
              size={120}
              foreground={tag.foregroundColor}
              background={tag.backgroundColor}
            />
            <span className="font-mono text-sm font-bold">{tag.code}</span>
          </li>
        ))}
      </ul>
    </div>
  )
}
