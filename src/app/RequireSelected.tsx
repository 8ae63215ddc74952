import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { useSelectOrganization } from '../api/organizations.ts'
import { useProfile } from '../api/profile.ts'
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
  const { select, isPending } = useSelectOrganization()
  if (profile?.selectedOrganizationId === organizationId) return <>{children}</>
  return (
    <Card className="flex max-w-xl flex-col items-start gap-4">
      <p className="text-slate-800">
        <Trans>
          Orders are placed for the selected organization. Switch to {organizationName} to order for it.
        </Trans>
      </p>
      <Button isDisabled={isPending} onPress={() => void select(organizationId)}>
        <Trans>Switch to {organizationName}</Trans>
      </Button>
    </Card>
  )
}
