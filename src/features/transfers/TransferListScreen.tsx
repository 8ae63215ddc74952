import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { TRANSFER_STATUSES, type TransferStatus } from '../../../contract/transfers.ts'
import { type TransferFilter, transferListQuery } from '../../api/transfers.ts'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TRANSFER_STATUS_LABELS } from './labels.ts'
import { TransferActions } from './TransferActions.tsx'
import { TransferTable } from './TransferTable.tsx'

/** `/app/transfers`: the selected organization's transfers, filtered by status and expiry (kept in the URL). */
export function TransferListScreen({
  organizationId,
  filter,
  onFilterChange,
}: {
  organizationId: string
  filter: TransferFilter
  onFilterChange: (filter: TransferFilter) => void
}) {
  const { t, i18n } = useLingui()
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
  return (
    <>
      <PageHeader title={<Trans>Transfers</Trans>} />
      <div className="mb-6 grid max-w-2xl gap-4 sm:grid-cols-2">
        <SelectField
          label={t`Status`}
          name="status"
          value={filter.status ?? ''}
          onChange={(value) => onFilterChange({ ...filter, status: (value || undefined) as TransferStatus })}
          options={[
            { value: '', label: t`All statuses` },
            ...TRANSFER_STATUSES.map((status) => ({
              value: status,
              label: i18n._(TRANSFER_STATUS_LABELS[status]),
            })),
          ]}
        />
        <SelectField
          label={t`Expiry`}
          name="expired"
          value={filter.expired === undefined ? '' : String(filter.expired)}
          onChange={(value) => onFilterChange({ ...filter, expired: value ? value === 'true' : undefined })}
          options={[
            { value: '', label: t`Expired or not` },
            { value: 'true', label: t`Expired only` },
            { value: 'false', label: t`Not expired` },
          ]}
        />
      </div>
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the transfers…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The transfers could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No transfer matches.</Trans>}>
          <p className="text-slate-700">
            <Trans>Transfers are authorized from a keychain's page.</Trans>
          </p>
        </EmptyState>
      ) : (
        <div className="flex flex-col gap-4">
          <TransferTable
            transfers={list.data.data}
            view="organization"
            rowHref={
              canOpenKeychains ? (transfer) => href(`/app/keychains/${transfer.keychain.id}`) : undefined
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
