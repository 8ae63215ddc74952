import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { OrderResultScreen } from '../../../../features/orders/OrderResultScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/order-result/')({
  validateSearch: v.object({ order: v.optional(v.string()) }),
  component: () => <OrderResultScreen orderId={Route.useSearch().order} kind="pending" />,
})
