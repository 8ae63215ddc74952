import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { CircleCheck, CircleX, LoaderCircle } from 'lucide-react'
import { useRef } from 'react'
import type { OrderStatus } from '../../../contract/commerce.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { checkOrder } from './api.ts'

const POLL_MS = 2000
/** After about a minute the page stops asking and says the payment is still being processed. */
const MAX_POLLS = 30
const PAID_OR_LATER: OrderStatus[] = ['PAID', 'CONFIRMED', 'PRODUCING', 'SHIPPED', 'DELIVERED']

export type ResultKind = 'pending' | 'success' | 'cancel'

/**
 * After the payment page: asks the server (which asks the provider) for the truth until it is final, then says
 * what happened. `kind` is where the provider sent the payer; the order's status has the last word.
 */
export function OrderResultScreen({ orderId, kind }: { orderId: string | undefined; kind: ResultKind }) {
  const href = useHref()
  const polls = useRef(0)
  const { data: order, isError } = useQuery({
    queryKey: ['order-check', orderId],
    queryFn: () => {
      polls.current += 1
      return checkOrder(orderId ?? '')
    },
    enabled: Boolean(orderId),
    retry: false,
    refetchInterval: (query) =>
      query.state.status === 'error' ||
      (query.state.data && query.state.data.status !== 'CREATED') ||
      polls.current >= MAX_POLLS
        ? false
        : POLL_MS,
  })
  const stillProcessing = order?.status === 'CREATED' && polls.current >= MAX_POLLS
  const planOnly = order ? order.quantity === 0 : false
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
            {planOnly ? (
              <Trans>Thank you! Your plan is active.</Trans>
            ) : (
              <Trans>Thank you! Your order is paid; its tags are now in your organization.</Trans>
            )}
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
