import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { memberTransfersQuery } from '../../api/members-page.ts'
import { formatCalendarRange } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Badge } from '../../ui/Badge.tsx'
import { Card } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { MEMBER_TRANSFER_STATUS, memberTransferTone } from './member-transfer-labels.ts'

/** The transfers addressed to the member, newest window first, page by page. */
export function MemberTransfersSection({
  organizationId,
  userId,
}: {
  organizationId: string
  userId: string
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const { cursor, pager } = useCursorPages()
  const list = useQuery({
    ...memberTransfersQuery(organizationId, userId, cursor),
    placeholderData: keepPreviousData,
  })
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Their transfers</Trans>
      </h2>
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the transfers…</Trans>} />
      ) : list.isError ? (
        <ErrorState
          message={<Trans>The transfers could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
          error={list.error}
        />
      ) : list.data.data.length === 0 ? (
        <p className="text-slate-700">
          <Trans>No transfer was ever addressed to them.</Trans>
        </p>
      ) : (
        <>
          <ul aria-label={t`Their transfers`} className="divide-y divide-slate-200">
            {list.data.data.map((transfer) => (
              <li key={transfer.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div>
                  <p className="font-semibold text-slate-900">{transfer.keychain.name}</p>
                  <p className="text-sm text-slate-700">
                    {formatCalendarRange(transfer.fromDate, transfer.toDate, locale)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Badge tone={memberTransferTone(transfer)}>
                    {i18n._(MEMBER_TRANSFER_STATUS[transfer.status])}
                  </Badge>
                  {transfer.expired ? (
                    <Badge tone="danger">
                      {transfer.status === 'SCHEDULED' ? <Trans>Expired</Trans> : <Trans>Overdue</Trans>}
                    </Badge>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
          {pager(list.data.nextCursor)}
        </>
      )}
    </Card>
  )
}
