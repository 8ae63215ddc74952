import { Trans, useLingui } from '@lingui/react/macro'
import { X } from 'lucide-react'
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components'
import type { Order } from '../../../contract/commerce.ts'
import { NeedsConnection } from '../../offline/OfflineBanner.tsx'
import { CartSummary } from './CartSummary.tsx'

/** The cart drawer; loaded only when opened, so the dialog code stays off every page's first load. */
export default function CartDialog({
  organizationId,
  open,
  setOpen,
  onOrdered,
}: {
  organizationId: string
  open: boolean
  setOpen: (open: boolean) => void
  onOrdered: (order: Order) => void
}) {
  const { t } = useLingui()
  return (
    <ModalOverlay
      isOpen={open}
      onOpenChange={setOpen}
      isDismissable
      className="fixed inset-0 z-40 flex justify-end bg-slate-900/40 dark:bg-black/60"
    >
      <Modal className="h-full w-full max-w-md overflow-y-auto bg-white p-6 shadow-xl">
        <Dialog className="outline-none">
          <div className="mb-4 flex items-center justify-between">
            <Heading slot="title" className="text-xl font-bold text-slate-900">
              <Trans>Cart</Trans>
            </Heading>
            <button
              type="button"
              onClick={() => setOpen(false)}
              aria-label={t`Close`}
              className="rounded-md p-2 hover:bg-slate-100"
            >
              <X aria-hidden className="size-5" />
            </button>
          </div>
          <NeedsConnection />
          <CartSummary
            organizationId={organizationId}
            onOrdered={(order) => {
              setOpen(false)
              onOrdered(order)
            }}
          />
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
