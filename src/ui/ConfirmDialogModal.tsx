import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components'
import { Button } from './Button.tsx'

/** The dialog itself (react-aria, heavy): loaded by ConfirmDialog the first time it opens. */
export type ConfirmDialogProps = {
  isOpen: boolean
  onOpenChange: (open: boolean) => void
  title: ReactNode
  children: ReactNode
  confirmLabel: ReactNode
  onConfirm: () => void
  isPending?: boolean
  /** The button that closes without acting; "Cancel" unless that would read like the action itself. */
  dismissLabel?: ReactNode
}

export function ConfirmDialogModal({
  isOpen,
  onOpenChange,
  title,
  children,
  confirmLabel,
  onConfirm,
  isPending = false,
  dismissLabel,
}: ConfirmDialogProps) {
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      isDismissable
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4 dark:bg-black/60"
    >
      <Modal className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl">
        <Dialog role="alertdialog" className="outline-none">
          <Heading slot="title" className="mb-2 text-lg font-semibold text-slate-900">
            {title}
          </Heading>
          <div className="mb-6 text-slate-700">{children}</div>
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="secondary" onPress={() => onOpenChange(false)}>
              {dismissLabel ?? <Trans>Cancel</Trans>}
            </Button>
            <Button variant="danger" onPress={onConfirm} isDisabled={isPending}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
