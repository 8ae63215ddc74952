import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { isCalendarDate } from '../../../contract/transfers.ts'
import { overlapsQuery } from '../../api/transfers.ts'
import { formatCalendarRange } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'

const DAY = /^\d{4}-\d{2}-\d{2}$/
const complete = (day: string) => DAY.test(day) && isCalendarDate(day)

/**
 * Says, before the form is sent, that another transfer of the keychain holds these days (the server would
 * refuse with `transfer_overlap`): to whom and from when to when. Nothing while the dates are incomplete, and
 * nothing offline (the server still decides).
 */
export function OverlapWarning({
  keychainId,
  fromDate,
  toDate,
}: {
  keychainId: string
  fromDate: string
  toDate: string
}) {
  const locale = useLocale()
  const ready = complete(fromDate) && complete(toDate) && toDate > fromDate
  const overlaps = useQuery({
    ...overlapsQuery(keychainId, fromDate, toDate),
    enabled: ready,
    staleTime: 10_000,
  })
  if (!ready || !overlaps.data?.length) return null
  return (
    <div role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-amber-950">
      <p className="font-semibold">
        <Trans>These days overlap another transfer of this keychain: it cannot be authorized as is.</Trans>
      </p>
      <ul className="mt-1 list-disc pl-5 text-sm">
        {overlaps.data.map((other) => {
          const who = personName(other.recipient)
          const window = formatCalendarRange(other.fromDate, other.toDate, locale)
          return (
            <li key={other.id}>
              <Trans>
                To {who}, {window}
              </Trans>
            </li>
          )
        })}
      </ul>
      <p className="mt-1 text-sm">
        <Trans>Choose days outside these windows, or cancel the other transfer first.</Trans>
      </p>
    </div>
  )
}
