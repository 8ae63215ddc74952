import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import type { Organization } from '../../contract/organizations.ts'
import { organizationQuery } from '../api/organizations.ts'
import { ErrorState, LoadingState } from '../ui/States.tsx'
import { RequireSelected } from './RequireSelected.tsx'

/**
 * A screen about one organization that must be the selected one (ordering tags): loads it, says so while it
 * loads, shows the not-found view for an unknown id and a retry for anything else.
 */
export function WithOrganization({
  organizationId,
  children,
}: {
  organizationId: string
  children: (organization: Organization) => ReactNode
}) {
  const { data, isPending, error, refetch } = useQuery(organizationQuery(organizationId))
  if (isPending) return <LoadingState label={<Trans>Loading the organization…</Trans>} />
  if (!data)
    return (
      <ErrorState
        message={<Trans>The organization could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  return (
    <RequireSelected organizationId={organizationId} organizationName={data.name}>
      {children(data)}
    </RequireSelected>
  )
}
