import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Transfer } from '../../../contract/transfers.ts'
import { useDecideExtension } from '../../api/transfers.ts'
import { formatCalendarDate } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { toasts } from '../../ui/toast/store.ts'
import { CancelTransferDialog } from './CancelTransferDialog.tsx'
import { ChaseTransferButton } from './ChaseTransferButton.tsx'
import { type MenuItem, TransferMenu } from './TransferMenu.tsx'

/** A holder's pending request for more time, with the manager's two answers. */
function ExtensionDecision({ transfer }: { transfer: Transfer }) {
  const { t } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  const decide = useDecideExtension()
  const extension = transfer.extension
  if (extension?.status !== 'PENDING') return null
  const until = formatCalendarDate(extension.toDate, locale)
  const holder = personName(transfer.recipient)
  const answer = async (decision: 'approve' | 'refuse') => {
    try {
      await decide.mutateAsync({ transferId: transfer.id, extensionId: extension.id, decision })
      toasts.add({
        severity: 'success',
        summary:
          decision === 'approve' ? t`${holder} may keep it until ${until}.` : t`The request was refused.`,
        life: 4000,
      })
    } catch (error) {
      failed(t`The request could not be answered.`, error)
    }
  }
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-700">
        <Trans>Asks to keep it until {until}</Trans>
      </span>
      <Button isDisabled={decide.isPending} onPress={() => void answer('approve')}>
        <Trans>Approve</Trans>
      </Button>
      <Button variant="secondary" isDisabled={decide.isPending} onPress={() => void answer('refuse')}>
        <Trans>Refuse</Trans>
      </Button>
    </div>
  )
}

/**
 * What a manager can do with a transfer of a list: answer a request for more time, chase it, and, in the row's
 * "More actions" menu (out of the way of a slip), cancel it.
 */
export function TransferActions({
  transfer,
  canCancel,
  canManage,
}: {
  transfer: Transfer
  canCancel: boolean
  /** Authorizing transfers: answering requests for more time and chasing late keychains go with it. */
  canManage: boolean
}) {
  const { t } = useLingui()
  const [cancelling, setCancelling] = useState(false)
  const cancel = canCancel && transfer.status === 'SCHEDULED'
  if (!cancel && !canManage) return null
  const keychain = transfer.keychain.name
  const menu: MenuItem[] = cancel
    ? [
        {
          id: 'cancel',
          label: <Trans>Cancel the transfer</Trans>,
          tone: 'danger',
          onSelect: () => setCancelling(true),
        },
      ]
    : []
  return (
    <div className="flex items-start gap-2">
      {canManage ? (
        <div className="flex flex-col items-start gap-2">
          <ExtensionDecision transfer={transfer} />
          <ChaseTransferButton transfer={transfer} />
        </div>
      ) : null}
      <TransferMenu label={t`More actions for the transfer of “${keychain}”`} items={menu} />
      {cancel ? (
        <CancelTransferDialog transfer={transfer} isOpen={cancelling} onOpenChange={setCancelling} />
      ) : null}
    </div>
  )
}
