import { Trans, useLingui } from '@lingui/react/macro'
import type { Transfer } from '../../../contract/transfers.ts'
import { useChaseTransfer } from '../../api/transfers.ts'
import { personName } from '../../lib/labels.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { toasts } from '../../ui/toast/store.ts'

const HOUR = 60 * 60 * 1000

/** Whether a manager may chase the transfer now: the keychain is late and no chase went out this last hour. */
export function chaseState(transfer: Transfer, now: Date): 'hidden' | 'ready' | 'recent' {
  if (transfer.status !== 'RETURNING' || !transfer.expired) return 'hidden'
  const last = transfer.chasedAt ? new Date(transfer.chasedAt).getTime() : null
  return last !== null && now.getTime() - last < HOUR ? 'recent' : 'ready'
}

/** "Chase": mails the holder of an overdue keychain a reminder now; at most once an hour. */
export function ChaseTransferButton({ transfer, now = new Date() }: { transfer: Transfer; now?: Date }) {
  const { t, i18n } = useLingui()
  const chase = useChaseTransfer()
  const failed = useFailureToast()
  const state = chaseState(transfer, now)
  if (state === 'hidden') return null
  const holder = personName(transfer.recipient)
  if (state === 'recent') {
    const time = i18n.date(transfer.chasedAt!, { hour: '2-digit', minute: '2-digit' })
    return (
      <span className="text-sm text-slate-600">
        <Trans>Reminded at {time}</Trans>
      </span>
    )
  }
  return (
    <Button
      variant="secondary"
      isDisabled={chase.isPending}
      onPress={async () => {
        try {
          await chase.mutateAsync(transfer.id)
          toasts.add({ severity: 'success', summary: t`A reminder was sent to ${holder}.`, life: 4000 })
        } catch (error) {
          failed(t`The reminder could not be sent.`, error)
        }
      }}
    >
      <Trans>Chase</Trans>
    </Button>
  )
}
