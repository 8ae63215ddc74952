import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import {
  OrganizationDetailScreen,
  type OrganizationTab,
} from '../../../../../features/organizations/OrganizationDetailScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/organizations/$id/')({
  validateSearch: v.object({ tab: v.optional(v.picklist(['users', 'tags'])) }),
  component: OrganizationDetail,
})

function OrganizationDetail() {
  const { id } = Route.useParams()
  const { tab = 'users' } = Route.useSearch()
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <OrganizationDetailScreen
      key={id}
      organizationId={id}
      tab={tab}
      onTabChange={(next: OrganizationTab) => void navigate({ search: { tab: next }, replace: true })}
    />
  )
}
