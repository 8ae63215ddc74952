import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../api/profile.ts'
import { PlansScreen } from '../../../features/plans/PlansScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/plans')({
  component: Plans,
})

function Plans() {
  const profile = useProfile()
  return <PlansScreen organizationId={profile?.selectedOrganizationId ?? null} onChosen={() => undefined} />
}
