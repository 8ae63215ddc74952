import { Plural, Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { ShoppingCart } from 'lucide-react'
import { lazy, Suspense, useState } from 'react'
import type { Order } from '../../../contract/commerce.ts'
import { cartQuery } from '../../api/cart.ts'

const CartDialog = lazy(() => import('./CartDialog.tsx'))

/** The cart of the selected organization, one tap away in the app shell. */
export function CartButton({
  organizationId,
  onOrdered,
}: {
  organizationId: string
  onOrdered: (order: Order) => void
}) {
  const [open, setOpen] = useState(false)
  const count = useQuery(cartQuery(organizationId)).data?.itemCount ?? 0
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="flex min-h-11 items-center lg:min-h-10 gap-2 rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-200/70"
      >
        <ShoppingCart aria-hidden className="size-4" />
        <Trans>Cart</Trans>
        {count > 0 ? (
          <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white">
            <span aria-hidden>{count}</span>
            <span className="sr-only">
              <Plural value={count} one="# item in the cart" other="# items in the cart" />
            </span>
          </span>
        ) : null}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <CartDialog organizationId={organizationId} open={open} setOpen={setOpen} onOrdered={onOrdered} />
        </Suspense>
      ) : null}
    </>
  )
}
