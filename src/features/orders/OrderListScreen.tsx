import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery } from '@tanstack/react-query'
import { orderListQuery } from '../../api/orders.ts'
import { useProfile } from '../../api/profile.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatDate, formatMoney } from '../../lib/format.ts'
import { ORDER_STATUS_LABELS } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { OrderContents } from './OrderContents.tsx'

/** Orders: the selected organization's, or every organization's for an operator. */
export function OrderListScreen() {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const href = useHref()
  const ability = useAbility()
  const list = useInfiniteQuery(orderListQuery)
  const selected = useProfile()?.selectedOrganizationId
  const orderHref =
    selected && ability.can('create', 'order') ? href(`/app/organizations/${selected}/new-order`) : null
  const orders = list.data?.pages.flatMap((page) => page.data) ?? []
  return (
    <>
      <PageHeader title={<Trans>Orders</Trans>} />
      {list.isPending ? (
        <LoadingState label={<Trans>Loading orders…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The orders could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : orders.length === 0 ? (
        <EmptyState title={<Trans>No orders yet.</Trans>}>
          {orderHref ? (
            <AppLink href={orderHref} className={buttonClass('primary')}>
              <Trans>Order tags</Trans>
            </AppLink>
          ) : null}
        </EmptyState>
      ) : (
        <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t`Orders`}</caption>
            <thead className="hidden bg-slate-50 text-slate-700 sm:table-header-group">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <Trans>Order</Trans>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <Trans>Status</Trans>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <Trans>Organization</Trans>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <Trans>Contents</Trans>
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  <Trans>Date</Trans>
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  <Trans>Total</Trans>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {orders.map((order) => (
                <tr key={order.id} className="flex flex-col gap-1 px-4 py-3 sm:table-row sm:p-0">
                  <td className="sm:px-4 sm:py-3">
                    <AppLink href={href(`/app/orders/${order.id}`)}>{order.reference}</AppLink>
                  </td>
                  <td className="sm:px-4 sm:py-3">
                    <Badge
                      tone={
                        order.status === 'CREATED' || order.status === 'UNPAID' || order.status === 'EXPIRED'
                          ? 'warning'
                          : 'success'
                      }
                    >
                      {i18n._(ORDER_STATUS_LABELS[order.status])}
                    </Badge>
                  </td>
                  <td className="text-slate-700 sm:px-4 sm:py-3">{order.organization.name}</td>
                  <td className="text-slate-700 sm:px-4 sm:py-3">
                    <OrderContents order={order} />
                  </td>
                  <td className="text-slate-700 sm:px-4 sm:py-3">{formatDate(order.createdAt, locale)}</td>
                  <td className="font-semibold tabular-nums sm:px-4 sm:py-3 sm:text-right">
                    {formatMoney(order.totals.totalInCents, locale)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.hasNextPage ? (
        <Button variant="secondary" className="mt-4" onPress={() => void list.fetchNextPage()}>
          <Trans>Show more</Trans>
        </Button>
      ) : null}
    </>
  )
}
