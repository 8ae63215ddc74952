import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { OrderDetailScreen } from '../../../../features/orders/OrderDetailScreen.tsx'
import { PrintTagsScreen } from '../../../../features/orders/PrintTagsScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/orders/$id')({
  validateSearch: v.object({ print: v.optional(v.unknown()) }),
  component: Order,
})

function Order() {
  const { id } = Route.useParams()
  const { print } = Route.useSearch()
  return print ? <PrintTagsScreen orderId={id} /> : <OrderDetailScreen key={id} orderId={id} />
}
