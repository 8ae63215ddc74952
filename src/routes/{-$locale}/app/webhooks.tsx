import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import { WebhooksScreen } from '../../../features/webhooks/WebhooksScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/webhooks')({
  component: Webhooks,
})

function Webhooks() {
  return (
    <RequireOrganization>
      {(organizationId) => <WebhooksScreen key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  )
}
