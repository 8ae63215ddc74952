import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Download, Printer } from 'lucide-react'
import { useState } from 'react'
import type { OrderAction } from '../../../contract/commerce.ts'
import { downloadTagsCsv, orderDetailsQuery, startPayment, useMoveOrder } from '../../api/orders.ts'
import { formatDateTime } from '../../lib/format.ts'
import { ORDER_STATUS_LABELS } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { PricePreview } from '../../ui/PricePreview.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { useTagCodeRangesText } from '../../ui/tag-code-ranges.ts'
import { toasts } from '../../ui/toast/store.ts'

type Move = 'confirmations' | 'productions' | 'shipments' | 'deliveries'
const MOVE_LABELS: Record<Move, MessageDescriptor> = {
  confirmations: msg`Confirm`,
  productions: msg`Put into production`,
  shipments: msg`Ship`,
  deliveries: msg`Mark delivered`,
}
const isMove = (action: OrderAction): action is Move => action in MOVE_LABELS

export function OrderDetailScreen({ orderId }: { orderId: string }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const locale = useLocale()
  const href = useHref()
  const rangesText = useTagCodeRangesText()
  const moveOrder = useMoveOrder(orderId)
  const [busy, setBusy] = useState(false)
  const { data, isPending, isError, error, refetch } = useQuery(orderDetailsQuery(orderId))
  if (isPending) return <LoadingState label={<Trans>Loading the order…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The order could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  const { order, tags } = data
  const planned = order.lines.flatMap((line) =>
    line.codes?.length && 'alphaCode' in line.configuration
      ? [{ id: line.id, name: line.configuration.name, codes: line.codes }]
      : [],
  )

  const act = async (run: () => Promise<unknown>) => {
    setBusy(true)
    try {
      await run()
      toasts.add({ severity: 'success', summary: t`The action has been successfully completed.`, life: 4000 })
    } catch (error) {
      failed(t`Action failed.`, error)
    } finally {
      setBusy(false)
    }
  }
  const pay = async () => {
    setBusy(true)
    try {
      const session = await startPayment(order.id)
      window.location.assign(session.url)
    } catch (error) {
      setBusy(false)
      failed(t`Action failed.`, error)
    }
  }
  const exportCsv = async () => {
    try {
      await downloadTagsCsv(order.id, order.reference)
    } catch (error) {
      failed(t`The file could not be downloaded.`, error)
    }
  }
  return (
    <>
      <PageHeader title={<Trans>Order {order.reference}</Trans>}>
        <div className="flex flex-wrap gap-2">
          {order.actions.includes('sessions') ? (
            <Button isDisabled={busy} onPress={() => void pay()}>
              <Trans>Pay</Trans>
            </Button>
          ) : null}
          {order.actions.filter(isMove).map((action) => (
            <Button
              key={action}
              isDisabled={busy}
              onPress={() => void act(() => moveOrder.mutateAsync(action))}
            >
              {i18n._(MOVE_LABELS[action])}
            </Button>
          ))}
          {order.actions.includes('tags-exports') ? (
            <Button variant="secondary" onPress={() => void exportCsv()}>
              <Download aria-hidden className="size-4" />
              <Trans>Export tags (CSV)</Trans>
            </Button>
          ) : null}
          {tags.length > 0 ? (
            <AppLink href={href(`/app/orders/${order.id}?print=1`)} className={buttonClass('secondary')}>
              <Printer aria-hidden className="size-4" />
              <Trans>Print view</Trans>
            </AppLink>
          ) : null}
        </div>
      </PageHeader>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_20rem]">
        <Card className="min-w-0">
          <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
            <dt className="font-medium text-slate-600">
              <Trans>Status</Trans>
            </dt>
            <dd data-testid="order-status">{i18n._(ORDER_STATUS_LABELS[order.status])}</dd>
            <dt className="font-medium text-slate-600">
              <Trans>Organization</Trans>
            </dt>
            <dd>{order.organization.name}</dd>
            <dt className="font-medium text-slate-600">
              <Trans>Quantity</Trans>
            </dt>
            <dd>{order.quantity}</dd>
            <dt className="font-medium text-slate-600">
              <Trans>Created</Trans>
            </dt>
            <dd>{formatDateTime(order.createdAt, locale)}</dd>
          </dl>
          <h2 className="mt-6 mb-3 font-semibold text-slate-900">
            <Trans>Tags</Trans>
          </h2>
          {tags.length === 0 ? (
            <>
              <p className="text-slate-700">
                <Trans>The tags are created when the order is paid.</Trans>
              </p>
              {planned.length > 0 ? (
                <ul aria-label={t`Codes the tags will carry`} className="mt-2 flex flex-col gap-1 text-sm">
                  {planned.map((line) => (
                    <li key={line.id}>
                      <Trans>
                        “{line.name}”: <span className="font-mono">{rangesText(line.codes)}</span>
                      </Trans>
                    </li>
                  ))}
                </ul>
              ) : null}
            </>
          ) : (
            <ul aria-label={t`Tags of the order`} className="grid gap-2 sm:grid-cols-2">
              {tags.map((tag) => (
                <li key={tag.id} className="flex items-center gap-3 text-sm">
                  <span
                    className="rounded px-2 py-0.5 font-mono font-bold ring-1 ring-slate-300"
                    style={{ color: tag.foregroundColor, backgroundColor: tag.backgroundColor }}
                  >
                    {tag.code}
                  </span>
                  <span className="text-slate-700">{tag.name}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card>
          <PricePreview breakdown={order.totals} />
        </Card>
      </div>
    </>
  )
}
