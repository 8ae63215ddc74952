import { Trans } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useRouter } from '@tanstack/react-router'
import type { ReactNode } from 'react'
import { useProfile } from '../features/auth/session.ts'
import { selectOrganization } from '../features/organizations/api.ts'
import { Button } from '../ui/Button.tsx'
import { Card } from '../ui/Card.tsx'

/**
 * Pages that act on the selected organization (the cart, orders) but are reached through another organization's
 * address: they ask to switch first, so nothing is ordered for the wrong organization.
 */
export function RequireSelected({
  organizationId,
  organizationName,
  children,
}: {
  organizationId: string
  organizationName: string
  children: ReactNode
}) {
  const profile = useProfile()
  const queryClient = useQueryClient()
  const router = useRouter()
  if (profile?.selectedOrganizationId === organizationId) return <>{children}</>
  return (
    <Card className="flex max-w-xl flex-col items-start gap-4">
      <p className="text-slate-800">
        <Trans>
          Orders are placed for the selected organization. Switch to {organizationName} to order for it.
        </Trans>
      </p>
      <Button
        onPress={async () => {
          await selectOrganization(organizationId)
          await queryClient.invalidateQueries()
          await router.invalidate()
        }}
      >
        <Trans>Switch to {organizationName}</Trans>
      </Button>
    </Card>
  )
}
