import { Trans } from '@lingui/react/macro'
import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import { TagListScreen } from '../../../features/tags/TagListScreen.tsx'
import { useAbility } from '../../../lib/ability.tsx'
import { EmptyState } from '../../../ui/States.tsx'

/** The selected organization's tags inside the app (`/app/tags`, `/en/app/tags`), for the roles that read them. */
export const Route = createFileRoute('/{-$locale}/app/tags')({
  component: Tags,
})

function Tags() {
  const ability = useAbility()
  if (!ability.can('read', 'tag'))
    return <EmptyState title={<Trans>Your role does not show the tags.</Trans>} />
  return (
    <RequireOrganization>
      {(organizationId) => <TagListScreen key={organizationId} organizationId={organizationId} />}
    </RequireOrganization>
  )
}
