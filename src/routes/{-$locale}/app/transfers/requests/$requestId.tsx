import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { useSelectOrganization } from '../../../../../api/organizations.ts'
import { useProfile } from '../../../../../api/profile.ts'
import { transferQuery } from '../../../../../api/transfers.ts'
import { startLoading } from '../../../../../app/start-loading.ts'
import { RequestDetailScreen } from '../../../../../features/transfers/RequestDetailScreen.tsx'
import { localizedHref } from '../../../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/transfers/requests/$requestId')({
  loader: ({ context, params }) => startLoading(context.queryClient, transferQuery(params.requestId)),
  component: RequestDetail,
})

function RequestDetail() {
  const { requestId } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const profile = useProfile()
  const { select } = useSelectOrganization()
  const navigate = useNavigate()
  return (
    <RequestDetailScreen
      key={requestId}
      transferId={requestId}
      onScan={async (transfer) => {
        // The scan screen works in the selected organization: switch to the transfer's first.
        if (profile?.selectedOrganizationId !== transfer.organizationId) {
          if (!(await select(transfer.organizationId))) return
        }
        await navigate({ href: localizedHref(locale, '/app/scan') })
      }}
      ask={async (transfer, toDate) => {
        // The outbox (Dexie) loads when the holder asks, not with the page.
        const { submitExtension } = await import('../../../../../offline/field.ts')
        const context = {
          userId: profile?.id ?? '',
          organizationId: transfer.organizationId,
          permissions: profile?.permissions ?? [],
        }
        return submitExtension(context, transfer, toDate)
      }}
    />
  )
}
