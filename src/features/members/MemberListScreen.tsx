import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { membersQuery } from '../../api/members.ts'
import { useHref } from '../../lib/use-locale.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { MemberTable } from '../../ui/MemberTable.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'

export function MemberListScreen({ organizationId }: { organizationId: string }) {
  const href = useHref()
  const { data, isPending, isError, refetch } = useQuery(membersQuery(organizationId))
  return (
    <>
      <PageHeader title={<Trans>Users</Trans>} />
      {isPending ? (
        <LoadingState label={<Trans>Loading members…</Trans>} />
      ) : isError ? (
        <ErrorState
          message={<Trans>The members could not be loaded.</Trans>}
          onRetry={() => void refetch()}
        />
      ) : (
        <MemberTable members={data} hrefOf={(member) => href(`/app/users/${member.id}`)} />
      )}
    </>
  )
}
