import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { CircleCheck, CircleX, LoaderCircle } from 'lucide-react'
import type { OrderStatus } from '../../../contract/commerce.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { checkOrder } from './api.ts'

const POLL_MS = 2000
const PAID_OR_LATER: OrderStatus[] = ['PAID', 'CONFIRMED', 'PRODUCING', 'SHIPPED', 'DELIVERED']

export type ResultKind = 'pending' | 'success' | 'cancel'

/**
 * After the payment page: asks the server (which asks the provider) for the truth until it is final, then says
 * what happened. `kind` is where the provider sent the payer; the order's status has the last word.
 */
export function OrderResultScreen({ orderId, kind }: { orderId: string | undefined; kind: ResultKind }) {
  const href = useHref()
  const { data: order, isError } = useQuery({
    queryKey: ['order-check', orderId],
    queryFn: () => checkOrder(orderId ?? ''),
    enabled: Boolean(orderId),
    refetchInterval: (query) => (query.state.data && query.state.data.status !== 'CREATED' ? false : POLL_MS),
  })
  const paid = order ? PAID_OR_LATER.includes(order.status) : false
  const failed = order ? order.status === 'UNPAID' || order.status === 'EXPIRED' : kind === 'cancel'
  const orderLink = orderId ? (
    <AppLink href={href(`/app/orders/${orderId}`)} className={buttonClass('primary', 'self-start')}>
      <Trans>See the order</Trans>
    </AppLink>
  ) : null
  return (
    <Card className="mx-auto flex max-w-xl flex-col gap-4">
      {paid ? (
        <>
          <CircleCheck aria-hidden className="size-10 text-emerald-600" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Payment received</Trans>
          </h1>
          <p className="text-slate-700">
            <Trans>Thank you! Your order is paid; its tags are now in your organization.</Trans>
          </p>
        </>
      ) : failed || kind === 'cancel' ? (
        <>
          <CircleX aria-hidden className="size-10 text-amber-600" />
          <h1 className="text-2xl font-bold text-slate-900">
            <Trans>Payment cancelled</Trans>
          </h1>
          <p className="text-slate-700">
            <Trans>Nothing was charged. You can pay the order later from its page.</Trans>
          </p>
        </>
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
