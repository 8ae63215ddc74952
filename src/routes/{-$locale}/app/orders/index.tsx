import { createFileRoute } from '@tanstack/react-router'
import { OrderListScreen } from '../../../../features/orders/OrderListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/orders/')({
  component: OrderListScreen,
})
