import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../../api/profile.ts'
import { OrganizationListScreen } from '../../../../features/organizations/OrganizationListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/organizations/')({
  component: () => <OrganizationListScreen selectedId={useProfile()?.selectedOrganizationId ?? null} />,
})
