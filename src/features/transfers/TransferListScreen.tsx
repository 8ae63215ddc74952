import { Trans } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { type TransferFilter, transferListQuery } from '../../api/transfers.ts'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TransferActions } from './TransferActions.tsx'
import { TransferListFilters } from './TransferListFilters.tsx'
import { TransferTable } from './TransferTable.tsx'

/**
 * `/app/transfers`: the selected organization's transfers, with quick filters (today, overdue), status, expiry and
 * order kept in the URL, and the way to a new transfer.
 */
export function TransferListScreen({
  organizationId,
  filter,
  onFilterChange,
}: {
  organizationId: string
  filter: TransferFilter
  onFilterChange: (filter: TransferFilter) => void
}) {
  const href = useHref()
  const ability = useAbility()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({
    ...transferListQuery(organizationId, filter, cursor),
    placeholderData: keepPreviousData,
  })
  const canCancel = ability.can('delete', 'transfer')
  const canManage = ability.can('create', 'transfer')
  const canOpenKeychains = ability.can('read', 'keychain')
  const canReadMembers = ability.can('read', 'member')
  return (
    <>
      <PageHeader title={<Trans>Transfers</Trans>}>
        {canManage ? (
          <AppLink href={href('/app/transfers/new')} className={buttonClass('primary')}>
            <Plus aria-hidden className="size-4" />
            <Trans>New transfer</Trans>
          </AppLink>
        ) : null}
      </PageHeader>
      <TransferListFilters filter={filter} onChange={onFilterChange} />
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the transfers…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The transfers could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No transfer matches.</Trans>}>
          {filter.when || filter.status || filter.expired !== undefined ? (
            <Button
              variant="secondary"
              onPress={() => onFilterChange({ sort: filter.sort, order: filter.order })}
            >
              <Trans>Clear the filters</Trans>
            </Button>
          ) : canManage ? (
            <AppLink href={href('/app/transfers/new')}>
              <Trans>Authorize a first transfer</Trans>
            </AppLink>
          ) : (
            <p className="text-slate-700">
              <Trans>Transfers are authorized from a keychain's page.</Trans>
            </p>
          )}
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <TransferTable
            transfers={list.data.data}
            view="organization"
            rowHref={
              canOpenKeychains ? (transfer) => href(`/app/keychains/${transfer.keychain.id}`) : undefined
            }
            recipientHref={
              canReadMembers ? (transfer) => href(`/app/users/${transfer.recipient.id}`) : undefined
            }
            actions={(transfer) => (
              <TransferActions transfer={transfer} canCancel={canCancel} canManage={canManage} />
            )}
          />
          {pager(list.data.nextCursor)}
        </div>
      )}
    </>
  )
}
