import { useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { createFileRoute, useNavigate, useRouter } from '@tanstack/react-router'
import { useProfile } from '../../../../../features/auth/session.ts'
import { selectOrganization } from '../../../../../features/organizations/api.ts'
import { RequestDetailScreen } from '../../../../../features/transfers/RequestDetailScreen.tsx'
import { localizedHref } from '../../../../../lib/paths.ts'
import { toasts } from '../../../../../ui/toast/store.ts'

export const Route = createFileRoute('/{-$locale}/app/transfers/requests/$requestId')({
  component: RequestDetail,
})

function RequestDetail() {
  const { requestId } = Route.useParams()
  const { locale } = Route.useRouteContext()
  const profile = useProfile()
  const queryClient = useQueryClient()
  const router = useRouter()
  const navigate = useNavigate()
  const { t } = useLingui()
  return (
    <RequestDetailScreen
      key={requestId}
      transferId={requestId}
      onScan={async (transfer) => {
        // The scan screen works in the selected organization: switch to the transfer's first.
        if (profile?.selectedOrganizationId !== transfer.organizationId) {
          try {
            await selectOrganization(transfer.organizationId)
          } catch {
            toasts.add({ severity: 'error', summary: t`The organization could not be selected.`, life: 6000 })
            return
          }
          await queryClient.invalidateQueries()
          await router.invalidate()
        }
        await navigate({ href: localizedHref(locale, '/app/scan') })
      }}
    />
  )
}
