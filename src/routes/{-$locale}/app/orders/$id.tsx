import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { orderDetailsQuery } from '../../../../api/orders.ts'
import { startLoading } from '../../../../app/start-loading.ts'
import { OrderDetailScreen } from '../../../../features/orders/OrderDetailScreen.tsx'
import { PrintTagsScreen } from '../../../../features/orders/PrintTagsScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/orders/$id')({
  validateSearch: v.object({ print: v.optional(v.unknown()) }),
  loader: ({ context, params }) => startLoading(context.queryClient, orderDetailsQuery(params.id)),
  component: Order,
})

function Order() {
  const { id } = Route.useParams()
  const { print } = Route.useSearch()
  return print ? <PrintTagsScreen orderId={id} /> : <OrderDetailScreen key={id} orderId={id} />
}
