import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { KeychainImportScreen } from '../../../../features/keychains/KeychainImportScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/keychains/import')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <KeychainImportScreen organizationId={organizationId} />}
    </RequireOrganization>
  ),
})
