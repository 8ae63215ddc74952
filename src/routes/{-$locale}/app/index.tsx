import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { Plus } from 'lucide-react'
import { DashboardScreen } from '../../../features/dashboard/DashboardScreen.tsx'
import { localizedHref } from '../../../lib/paths.ts'
import { buttonClass } from '../../../ui/Button.tsx'

export const Route = createFileRoute('/{-$locale}/app/')({
  component: Dashboard,
})

function Dashboard() {
  const { locale, profile } = Route.useRouteContext()
  return (
    <DashboardScreen
      profile={profile}
      createOrganizationLink={
        <a href={localizedHref(locale, '/app/organizations/new')} className={buttonClass('primary')}>
          <Plus aria-hidden className="size-4" />
          <Trans>Create an organization</Trans>
        </a>
      }
    />
  )
}
