import { Trans, useLingui } from '@lingui/react/macro'
import type { Transfer } from '../../../contract/transfers.ts'
import { Badge } from '../../ui/Badge.tsx'
import { statusTone, TRANSFER_STATUS_LABELS } from './labels.ts'

export function TransferStatusBadge({ transfer }: { transfer: Pick<Transfer, 'status' | 'expired'> }) {
  const { i18n } = useLingui()
  return (
    <span className="inline-flex flex-wrap gap-1.5">
      <Badge tone={statusTone(transfer)}>{i18n._(TRANSFER_STATUS_LABELS[transfer.status])}</Badge>
      {transfer.expired ? (
        <Badge tone="danger">
          {transfer.status === 'SCHEDULED' ? <Trans>Expired</Trans> : <Trans>Overdue</Trans>}
        </Badge>
      ) : null}
    </span>
  )
}
