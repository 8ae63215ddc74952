import { Trans, useLingui } from '@lingui/react/macro'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { HeldKeychain } from '../../../contract/reports.ts'
import { memberHoldingsQuery } from '../../api/members-page.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatCalendarDate } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { Card } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'

function DueBack({ held }: { held: HeldKeychain }) {
  const locale = useLocale()
  if (!held.dueBack) return <Trans>Held without a transfer</Trans>
  const day = formatCalendarDate(held.dueBack.toDate, locale)
  return held.dueBack.overdue ? (
    <Badge tone="danger">
      <Trans>Overdue since {day}</Trans>
    </Badge>
  ) : (
    <Trans>Due back on {day}</Trans>
  )
}

/** What the member holds now: each keychain, its tags, and the day it is due back when a transfer lent it. */
export function MemberHoldingsSection({
  organizationId,
  userId,
}: {
  organizationId: string
  userId: string
}) {
  const { t } = useLingui()
  const href = useHref()
  const canOpenKeychains = useAbility().can('read', 'keychain')
  const { cursor, pager } = useCursorPages()
  const holdings = useQuery({
    ...memberHoldingsQuery(organizationId, userId, cursor),
    placeholderData: keepPreviousData,
  })
  return (
    <Card className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold text-slate-900">
        <Trans>Keychains held now</Trans>
      </h2>
      {holdings.isPending ? (
        <LoadingState label={<Trans>Loading what they hold…</Trans>} />
      ) : holdings.isError ? (
        <ErrorState
          message={<Trans>The keychains held could not be loaded.</Trans>}
          onRetry={() => void holdings.refetch()}
          error={holdings.error}
        />
      ) : holdings.data.data.length === 0 ? (
        <p className="text-slate-700">
          <Trans>No keychain at the moment.</Trans>
        </p>
      ) : (
        <>
          <ul aria-label={t`Keychains held now`} className="divide-y divide-slate-200">
            {holdings.data.data.map((held) => {
              const codes = held.keys.flatMap((key) => (key.tagCode ? [key.tagCode] : []))
              return (
                <li key={held.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                  <div>
                    <p className="font-semibold text-slate-900">
                      {canOpenKeychains ? (
                        <AppLink href={href(`/app/keychains/${held.id}`)}>{held.name}</AppLink>
                      ) : (
                        held.name
                      )}
                    </p>
                    {codes.length ? <p className="text-sm text-slate-700">{codes.join(', ')}</p> : null}
                  </div>
                  <span className="text-sm text-slate-800">
                    <DueBack held={held} />
                  </span>
                </li>
              )
            })}
          </ul>
          {pager(holdings.data.nextCursor)}
        </>
      )}
    </Card>
  )
}
