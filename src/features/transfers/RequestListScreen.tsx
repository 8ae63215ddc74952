import { Trans } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { useProfile } from '../../api/profile.ts'
import { requestsQuery } from '../../api/transfers.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TransferTable } from './TransferTable.tsx'

/** `/app/transfers/requests`: keychains transferred to me, in every organization, open ones first. */
export function RequestListScreen() {
  const href = useHref()
  const profile = useProfile()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({ ...requestsQuery(cursor), placeholderData: keepPreviousData })
  return (
    <>
      <PageHeader title={<Trans>Transfer requests</Trans>}>
        {profile?.selectedOrganizationId ? (
          <AppLink href={href(`/app/users/${profile.id}`)}>
            <Trans>What I hold in this organization</Trans>
          </AppLink>
        ) : null}
      </PageHeader>
      {list.isPending ? (
        <LoadingState label={<Trans>Loading your requests…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>Your requests could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No keychain has been transferred to you.</Trans>}>
          <p className="text-slate-700">
            <Trans>
              When an organization authorizes a transfer to you, it appears here and you get an e-mail.
            </Trans>
          </p>
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <TransferTable
            transfers={list.data.data}
            view="requests"
            rowHref={(transfer) => href(`/app/transfers/requests/${transfer.id}`)}
          />
          {pager(list.data.nextCursor)}
        </div>
      )}
    </>
  )
}
