import { Trans } from '@lingui/react/macro'
import { CircleCheck, CircleHelp, CircleX, LoaderCircle } from 'lucide-react'
import type { OrderStatus } from '../../../contract/commerce.ts'
import { useOrderCheck } from '../../api/orders.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'

const PAID_OR_LATER: OrderStatus[] = ['PAID', 'CONFIRMED', 'PRODUCING', 'SHIPPED', 'DELIVERED']

export type ResultKind = 'pending' | 'success' | 'cancel'

/**
 * After the payment page: asks the server (which asks the provider) for the truth until it is final, then says
 * what happened. `kind` is where the provider sent the payer; the order's status has the last word.
 */
export function OrderResultScreen({ orderId, kind }: { orderId: string | undefined; kind: ResultKind }) {
  const href = useHref()
  const { order, isError, gaveUp } = useOrderCheck(orderId, { poll: kind !== 'cancel' })
  const stillProcessing = order?.status === 'CREATED' && gaveUp
  const planOnly = order ? order.quantity === 0 : false
  const paid = order ? PAID_OR_LATER.includes(order.status) : false
  const declined = order?.status === 'UNPAID'
  // The payer left the payment page (the provider sent them to the cancel address), or its session ran out.
  const cancelled = order
    ? order.status === 'EXPIRED' || (kind === 'cancel' && order.status === 'CREATED')
    : false
  const orderLink = orderId ? (
    <AppLink href={href(`/app/orders/${orderId}`)} className={buttonClass('primary', 'self-start')}>
      <Trans>See the order</Trans>
    </AppLink>
  ) : (
    <AppLink href={href('/app/orders')} className={buttonClass('primary', 'self-start')}>
      <Trans>See the orders</Trans>
    </AppLink>
  )
  return (
    <Card className="mx-auto flex max-w-xl flex-col gap-4">
      {!orderId ? (
        <>
          <CircleHelp aria-hidden className="size-10 text-slate-500" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>No order to check</Trans>
          </h1>
          <p className="text-slate-700">
            <Trans>This address names no order. The orders list shows where each payment stands.</Trans>
          </p>
        </>
      ) : paid ? (
        <>
          <CircleCheck aria-hidden className="size-10 text-emerald-600" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Payment received</Trans>
          </h1>
          <p className="text-slate-700">
            {planOnly ? (
              <Trans>Thank you! Your plan is active.</Trans>
            ) : (
              <Trans>Thank you! Your order is paid; its tags are now in your organization.</Trans>
            )}
          </p>
        </>
      ) : declined ? (
        <>
          <CircleX aria-hidden className="size-10 text-red-600" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Payment declined</Trans>
          </h1>
          <p className="text-slate-700">
            <Trans>
              The payment was refused and nothing was charged. You can pay again from the order's page, with
              another card if need be.
            </Trans>
          </p>
        </>
      ) : cancelled ? (
        <>
          <CircleX aria-hidden className="size-10 text-amber-600" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Payment cancelled</Trans>
          </h1>
          <p className="text-slate-700">
            <Trans>Nothing was charged. You can pay the order later from its page.</Trans>
          </p>
        </>
      ) : stillProcessing ? (
        <p role="status" className="text-slate-800">
          <Trans>
            The payment is still being processed. The order page will show it once it is confirmed.
          </Trans>
        </p>
      ) : stillProcessing ? (
        <p role="status" className="text-slate-800">
          <Trans>
            The payment is still being processed. The order page will show it once it is confirmed.
          </Trans>
        </p>
      ) : isError ? (
        <p role="alert" className="text-red-800">
          <Trans>The payment status could not be checked. Open the order to see where it stands.</Trans>
        </p>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-800">
          <LoaderCircle aria-hidden className="size-5 animate-spin" />
          <Trans>Checking the payment…</Trans>
        </p>
      )}
      {orderLink}
    </Card>
  )
}
