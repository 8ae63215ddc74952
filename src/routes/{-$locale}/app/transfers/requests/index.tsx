import { createFileRoute } from '@tanstack/react-router'
import { RequestListScreen } from '../../../../../features/transfers/RequestListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/transfers/requests/')({
  component: RequestListScreen,
})
