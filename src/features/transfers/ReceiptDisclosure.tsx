import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useId, useState } from 'react'
import type { Transfer } from '../../../contract/transfers.ts'
import { Button } from '../../ui/Button.tsx'
import { LoadingState } from '../../ui/States.tsx'

// The receipt's code (and its request) loads when someone opens one, not with every keychain page.
const ReceiptPanel = lazy(() =>
  import('./ReceiptCard.tsx').then((module) => ({ default: module.ReceiptPanel })),
)

/**
 * Who reads a transfer's receipt, as the server allows it (`GET /transfers/{id}/receipt`): the organization's
 * admins and managers (they authorize transfers) and its parties. The one who handed it over is not known
 * before the receipt is read, so a giver who neither manages nor authorized it reads it from the transfer.
 */
export function readsReceiptOf(
  transfer: Transfer,
  viewer: { id: string; managesTransfers: boolean },
): boolean {
  if (!transfer.pickups.some((pickup) => pickup.kind === 'PICKUP')) return false
  return (
    viewer.managesTransfers || transfer.recipient.id === viewer.id || transfer.authorizedBy?.id === viewer.id
  )
}

/** "Show the receipt" under a picked-up transfer of a list, opening it in place. */
export function ReceiptDisclosure({ transferId }: { transferId: string }) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const panel = useId()
  return (
    <div className="flex basis-full flex-col gap-3">
      <Button
        variant="ghost"
        className="self-start px-2"
        aria-expanded={open}
        aria-controls={panel}
        onPress={() => setOpen(!open)}
      >
        {open ? <Trans>Hide the receipt</Trans> : <Trans>Show the receipt</Trans>}
      </Button>
      {open ? (
        <section
          id={panel}
          aria-label={t`Handover receipt`}
          className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-slate-50 p-4"
        >
          <Suspense fallback={<LoadingState label={<Trans>Loading the receipt…</Trans>} />}>
            <ReceiptPanel transferId={transferId} />
          </Suspense>
        </section>
      ) : null}
    </div>
  )
}
