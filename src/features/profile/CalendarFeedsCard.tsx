import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { CalendarFeed } from '../../../contract/calendar.ts'
import { useCalendarFeeds, useCreateCalendarFeed, useRevokeCalendarFeed } from '../../api/calendar.ts'
import { formatCalendarDate } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { TextField } from '../../ui/TextField.tsx'

/**
 * Calendar feeds: the windows of my transfers (and, for a manager, of all the organization's) in any calendar
 * app that subscribes by address. An address is shown once, when made; a lost or shared one is revoked here.
 */
export function CalendarFeedsCard({ canFollowOrganization }: { canFollowOrganization: boolean }) {
  const { t } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  const feeds = useCalendarFeeds()
  const create = useCreateCalendarFeed()
  const revoke = useRevokeCalendarFeed()
  const [made, setMade] = useState<CalendarFeed | null>(null)
  const title = (feed: CalendarFeed) => {
    const organization = feed.organizationName ?? ''
    return feed.scope === 'personal' ? t`My transfers` : t`All transfers of ${organization}`
  }
  const add = async (scope: CalendarFeed['scope']) => {
    try {
      setMade(await create.mutateAsync(scope))
    } catch (error) {
      failed(t`The calendar address could not be made.`, error)
    }
  }
  return (
    <Card className="mt-6 flex max-w-2xl flex-col gap-4">
      <h2 className="text-base font-semibold">
        <Trans>Calendar</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>
          Follow transfer windows in your calendar app: it subscribes to an address that stays private. Anyone
          who has the address can read the calendar, so revoke it if it is shared by mistake.
        </Trans>
      </p>
      {made?.url ? (
        <div className="flex flex-col gap-2 rounded-lg bg-brand-50 p-3">
          <TextField
            label={title(made)}
            name="calendarUrl"
            value={made.url}
            onChange={() => undefined}
            isReadOnly
          />
          <p className="text-sm">
            <Trans>Copy this address into your calendar app now: it is shown only once.</Trans>
          </p>
        </div>
      ) : null}
      {feeds.data && feeds.data.data.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label={t`My calendar addresses`}>
          {feeds.data.data.map((feed) => {
            const madeOn = formatCalendarDate(feed.createdAt.slice(0, 10), locale)
            return (
              <li key={feed.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  {title(feed)} · <Trans>made on {madeOn}</Trans>
                </span>
                <Button
                  variant="secondary"
                  isDisabled={revoke.isPending}
                  onPress={() => {
                    revoke.mutate(feed.id, {
                      onError: (error) => failed(t`The address could not be revoked.`, error),
                    })
                    if (made?.id === feed.id) setMade(null)
                  }}
                >
                  <Trans>Revoke</Trans>
                </Button>
              </li>
            )
          })}
        </ul>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" isDisabled={create.isPending} onPress={() => void add('personal')}>
          <Trans>Add my transfers to a calendar</Trans>
        </Button>
        {canFollowOrganization ? (
          <Button variant="secondary" isDisabled={create.isPending} onPress={() => void add('organization')}>
            <Trans>Add all the organization's transfers to a calendar</Trans>
          </Button>
        ) : null}
      </div>
    </Card>
  )
}
