import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import type { CartItem, Order } from '../../../contract/commerce.ts'
import { cartQuery, useCheckout, useEmptyCart, useRemoveCartItem } from '../../api/cart.ts'
import { formatMoney } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { PricePreview } from '../../ui/PricePreview.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { useTagCodeRangesText } from '../../ui/tag-code-ranges.ts'

/** How a cart line reads: "Plan Pro, yearly", "Tags “Cave” (CAV)". */
function useItemLabel(): (item: CartItem) => string {
  const { t } = useLingui()
  return (item) => {
    const configuration = item.configuration
    if ('billingCycle' in configuration) {
      const name = configuration.name
      return configuration.billingCycle === 'YEARLY' ? t`Plan ${name}, yearly` : t`Plan ${name}, monthly`
    }
    if ('alphaCode' in configuration) {
      const { name, alphaCode } = configuration
      return t`Tags “${name}” (${alphaCode})`
    }
    return item.productRefId
  }
}

/** Item count, lines with removal, subtotal, shipping, tax and total; proceed to checkout or empty the cart. */
export function CartSummary({
  organizationId,
  onOrdered,
}: {
  organizationId: string
  onOrdered: (order: Order) => void
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const itemLabel = useItemLabel()
  const rangesText = useTagCodeRangesText()
  const locale = useLocale()
  const [busy, setBusy] = useState(false)
  const { data: cart, isPending, isError, refetch } = useQuery(cartQuery(organizationId))
  const removeItem = useRemoveCartItem(organizationId)
  const emptyCart = useEmptyCart(organizationId)
  const checkout = useCheckout(organizationId)
  const run = async (action: () => Promise<unknown>, failure: string) => {
    setBusy(true)
    try {
      await action()
    } catch (error) {
      failed(failure, error)
    } finally {
      setBusy(false)
    }
  }
  if (isPending) return <LoadingState label={<Trans>Loading the cart…</Trans>} />
  if (isError)
    return (
      <ErrorState message={<Trans>The cart could not be loaded.</Trans>} onRetry={() => void refetch()} />
    )
  if (cart.items.length === 0) {
    return (
      <p className="py-6 text-slate-700">
        <Trans>Your cart is empty.</Trans>
      </p>
    )
  }
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm font-medium text-slate-700">
        <Plural value={cart.itemCount} one="# item" other="# items" />
      </p>
      <ul aria-label={t`Cart items`} className="divide-y divide-slate-200 rounded-lg border border-slate-200">
        {cart.items.map((item) => (
          <li key={item.id} className="flex items-center gap-3 px-4 py-3">
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-900">{itemLabel(item)}</p>
              {item.codes?.length ? (
                <p className="font-mono text-sm text-slate-700">{rangesText(item.codes)}</p>
              ) : null}
              <p className="text-sm text-slate-700">
                {item.quantity} × {formatMoney(item.unitAmountInCents, locale)} ={' '}
                {formatMoney(item.lineTotalInCents, locale)}
              </p>
            </div>
            <Button
              variant="ghost"
              isDisabled={busy}
              onPress={() =>
                void run(() => removeItem.mutateAsync(item.id), t`The item could not be removed.`)
              }
              aria-label={t`Remove ${itemLabel(item)}`}
            >
              <Trash2 aria-hidden className="size-4" />
            </Button>
          </li>
        ))}
      </ul>
      <PricePreview breakdown={cart.totals} />
      <div className="flex flex-wrap gap-3">
        <Button
          isDisabled={busy}
          onPress={async () => {
            setBusy(true)
            try {
              onOrdered(await checkout.mutateAsync(undefined))
            } catch (error) {
              failed(t`The order could not be placed.`, error)
            } finally {
              setBusy(false)
            }
          }}
        >
          <Trans>Proceed to checkout</Trans>
        </Button>
        <Button
          variant="secondary"
          isDisabled={busy}
          onPress={() => void run(() => emptyCart.mutateAsync(), t`The cart could not be emptied.`)}
        >
          <Trans>Empty the cart</Trans>
        </Button>
      </div>
    </div>
  )
}
