import { createFileRoute } from '@tanstack/react-router'
import { foundReportQuery } from '../../../../api/found-reports.ts'
import { RequireOrganization } from '../../../../app/RequireOrganization.tsx'
import { startLoading } from '../../../../app/start-loading.ts'
import { FoundReportDetailScreen } from '../../../../features/found-reports/FoundReportDetailScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/found-reports/$id')({
  loader: ({ context, params }) => {
    const organizationId = context.profile.selectedOrganizationId
    if (organizationId) startLoading(context.queryClient, foundReportQuery(organizationId, params.id))
  },
  component: FoundReport,
})

function FoundReport() {
  const { id } = Route.useParams()
  return (
    <RequireOrganization>
      {(organizationId) => <FoundReportDetailScreen organizationId={organizationId} id={id} />}
    </RequireOrganization>
  )
}
