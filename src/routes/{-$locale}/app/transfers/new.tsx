import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useMembersIfAllowed } from '../../../../api/members.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { useTimeZone } from '../../../../app/useTimeZone.ts'
import { NewTransferScreen } from '../../../../features/transfers/NewTransferScreen.tsx'
import { localizedHref } from '../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/transfers/new')({
  component: () => (
    <RequireOrganization>
      {(organizationId) => <NewTransfer key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  ),
})

function NewTransfer({ organizationId }: { organizationId: string }) {
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  const members = useMembersIfAllowed(organizationId)
  const timeZone = useTimeZone(organizationId)
  return (
    <NewTransferScreen
      organizationId={organizationId}
      members={members}
      timeZone={timeZone}
      onDone={() => void navigate({ href: localizedHref(locale, '/app/transfers') })}
    />
  )
}
