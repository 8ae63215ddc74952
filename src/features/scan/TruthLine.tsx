import { Trans } from '@lingui/react/macro'
import type { Locale } from '../../../contract/locale.ts'
import { intlLocaleOf } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import type { Truth } from './truth.ts'

/**
 * A short day in the active locale ("26 nov." / "26 Nov"), with its year when it is not this year's. A calendar
 * day (`YYYY-MM-DD`) is read as written; an instant on the device's calendar.
 */
export function shortDay(value: string, locale: Locale, now = new Date()): string {
  const calendar = value.length === 10
  const date = new Date(calendar ? `${value}T00:00:00Z` : value)
  const year = calendar ? date.getUTCFullYear() : date.getFullYear()
  return new Intl.DateTimeFormat(intlLocaleOf(locale), {
    day: 'numeric',
    month: 'short',
    ...(year === now.getFullYear() ? {} : { year: 'numeric' }),
    ...(calendar ? { timeZone: 'UTC' } : {}),
  }).format(date)
}

/** The scan card's one line of truth about the keychain (nothing when there is nothing the caller may know). */
export function TruthLine({ truth, id }: { truth: Truth; id?: string }) {
  const locale = useLocale()
  if (!truth) return null
  const day = (value: string) => shortDay(value, locale)
  return (
    <p id={id} data-scan-truth={truth.kind} className="text-lg font-semibold text-slate-900">
      <TruthText truth={truth} day={day} />
    </p>
  )
}

function TruthText({ truth, day }: { truth: NonNullable<Truth>; day: (value: string) => string }) {
  switch (truth.kind) {
    case 'untagged':
      return <Trans>This tag is not on a key yet.</Trans>
    case 'returned':
      return <Trans>Returned: back with the organization</Trans>
    case 'free':
      return <Trans context="custody">Free</Trans>
    case 'booked': {
      const from = day(truth.from)
      const to = day(truth.to)
      return (
        <Trans>
          For you to pick up, from {from} to {to}
        </Trans>
      )
    }
    case 'mine': {
      if (!truth.due) return <Trans>With you</Trans>
      const due = day(truth.due)
      return truth.overdue ? (
        <Trans>With you, overdue: due back {due}</Trans>
      ) : (
        <Trans>With you, due back {due}</Trans>
      )
    }
    case 'held': {
      const name = personName(truth.person)
      const since = truth.since ? day(truth.since) : null
      const due = truth.due ? day(truth.due) : null
      if (due && truth.overdue)
        return (
          <Trans>
            With {name}, overdue: due back {due}
          </Trans>
        )
      if (since && due)
        return (
          <Trans>
            With {name} since {since}, due back {due}
          </Trans>
        )
      if (due)
        return (
          <Trans>
            With {name}, due back {due}
          </Trans>
        )
      return <Trans>With {name}</Trans>
    }
  }
}
