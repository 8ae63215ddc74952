import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Transfer } from '../../../contract/transfers.ts'
import { useCancelTransfer } from '../../api/transfers.ts'
import { ApiError } from '../../lib/api.ts'
import { personName } from '../../lib/labels.ts'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { toasts } from '../../ui/toast/store.ts'

/** Asks before cancelling a SCHEDULED transfer (opened from a row's menu); the recipient is told by e-mail. */
export function CancelTransferDialog({
  transfer,
  isOpen,
  onOpenChange,
}: {
  transfer: Transfer
  isOpen: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useLingui()
  const cancelTransfer = useCancelTransfer()
  const [pending, setPending] = useState(false)
  const recipient = personName(transfer.recipient)
  const cancel = async () => {
    setPending(true)
    try {
      await cancelTransfer.mutateAsync(transfer.id)
      toasts.add({ severity: 'success', summary: t`The transfer has been cancelled.`, life: 4000 })
    } catch (error) {
      toasts.add({
        severity: 'error',
        summary:
          error instanceof ApiError && error.status === 409
            ? t`Only a transfer that has not been picked up can be cancelled.`
            : t`The transfer could not be cancelled.`,
        life: 6000,
      })
    } finally {
      setPending(false)
      onOpenChange(false)
    }
  }
  return (
    <ConfirmDialog
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title={<Trans>Cancel this transfer?</Trans>}
      confirmLabel={<Trans>Cancel the transfer</Trans>}
      isPending={pending}
      dismissLabel={<Trans>Keep it</Trans>}
      onConfirm={() => void cancel()}
    >
      <Trans>
        {recipient} will no longer be able to pick up “{transfer.keychain.name}”, and will be told by e-mail.
      </Trans>
    </ConfirmDialog>
  )
}
