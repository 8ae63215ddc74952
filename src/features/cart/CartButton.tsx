import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { ShoppingCart, X } from 'lucide-react'
import { useState } from 'react'
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components'
import type { Order } from '../../../contract/commerce.ts'
import { cartQuery } from './api.ts'
import { CartSummary } from './CartSummary.tsx'

/** The cart of the selected organization, one tap away in the app shell. */
export function CartButton({
  organizationId,
  onOrdered,
}: {
  organizationId: string
  onOrdered: (order: Order) => void
}) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const count = useQuery(cartQuery(organizationId)).data?.itemCount ?? 0
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="flex min-h-10 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-200/70"
      >
        <ShoppingCart aria-hidden className="size-4" />
        <Trans>Cart</Trans>
        {count > 0 ? (
          <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white">
            {count}
            <span className="sr-only"> {t`items in the cart`}</span>
          </span>
        ) : null}
      </button>
      <ModalOverlay
        isOpen={open}
        onOpenChange={setOpen}
        isDismissable
        className="fixed inset-0 z-40 flex justify-end bg-slate-900/40"
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
    </>
  )
}
