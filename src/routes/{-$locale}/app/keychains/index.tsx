import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainListScreen } from '../../../../features/keychains/KeychainListScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/keychains/')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <KeychainListScreen key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  ),
})
