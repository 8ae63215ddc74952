import { createFileRoute } from '@tanstack/react-router'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { HandoverReceiptScreen } from '../../../../features/handover/HandoverReceiptScreen.tsx'

/** One handover and its receipt (`/app/handovers/$id`), from this phone's record offline. */
export const Route = createFileRoute('/{-$locale}/app/handovers/$id')({
  component: Handover,
})

function Handover() {
  const { id } = Route.useParams()
  return (
    <RequireOrganization>
      {(organizationId) => (
        <HandoverReceiptScreen key={`${organizationId}:${id}`} organizationId={organizationId} id={id} />
      )}
    </RequireOrganization>
  )
}
