import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../api/profile.ts'
import { DashboardScreen } from '../../../features/dashboard/DashboardScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/')({
  component: Dashboard,
})

function Dashboard() {
  const profile = useProfile()
  return profile ? <DashboardScreen profile={profile} /> : null
}
