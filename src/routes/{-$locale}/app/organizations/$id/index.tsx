import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { organizationQuery } from '../../../../../api/organizations.ts'
import { useProfile } from '../../../../../api/profile.ts'
import { startLoading } from '../../../../../app/start-loading.ts'
import {
  OrganizationDetailScreen,
  type OrganizationTab,
} from '../../../../../features/organizations/OrganizationDetailScreen.tsx'
import { SubscriptionCard } from '../../../../../features/plans/SubscriptionCard.tsx'
import { WebhooksLink } from '../../../../../features/webhooks/WebhooksLink.tsx'

export const Route = createFileRoute('/{-$locale}/app/organizations/$id/')({
  validateSearch: v.object({ tab: v.optional(v.picklist(['users', 'orders', 'tags'])) }),
  loader: ({ context, params }) => startLoading(context.queryClient, organizationQuery(params.id)),
  component: OrganizationDetail,
})

function OrganizationDetail() {
  const { id } = Route.useParams()
  const { tab = 'users' } = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  const profile = useProfile()
  const selectedOrganizationId = profile?.selectedOrganizationId ?? null
  return (
    <>
      <OrganizationDetailScreen
        key={id}
        organizationId={id}
        tab={tab}
        selectedOrganizationId={selectedOrganizationId}
        subscription={<SubscriptionCard organizationId={id} />}
        onTabChange={(next: OrganizationTab) => void navigate({ search: { tab: next }, replace: true })}
      />
      <WebhooksLink organizationId={id} selectedOrganizationId={selectedOrganizationId} />
    </>
  )
}
