import { Trans } from '@lingui/react/macro'
import { useId } from 'react'
import type { DashboardMine } from '../../../contract/dashboard.ts'
import { formatCalendarDate, formatNumber } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'

/** The keychains the caller holds, those due back first with their date, each leading to its page. */
export function MyKeychains({ mine }: { mine: DashboardMine }) {
  const id = useId()
  const href = useHref()
  const locale = useLocale()
  const more = mine.total - mine.keychains.length
  const count = formatNumber(more, locale)
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="font-semibold text-slate-900">
        <Trans>Keychains you hold</Trans>
      </h2>
      {mine.keychains.length === 0 ? (
        <p className="text-sm text-slate-700">
          <Trans>You hold no keychain right now.</Trans>
        </p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
          {mine.keychains.map((keychain) => {
            const due = keychain.dueDate ? formatCalendarDate(keychain.dueDate, locale) : null
            return (
              <li key={keychain.id} className="flex flex-wrap items-center justify-between gap-x-4 px-3 py-1">
                <AppLink
                  href={href(`/app/keychains/${keychain.id}`)}
                  className="inline-flex min-h-11 items-center font-medium text-brand-800"
                >
                  {keychain.name}
                </AppLink>
                <span className="text-sm text-slate-700">
                  {due ? <Trans>due back on {due}</Trans> : <Trans>no due date</Trans>}
                </span>
              </li>
            )
          })}
        </ul>
      )}
      {more > 0 ? (
        <AppLink
          href={href('/app/keychains')}
          className="inline-flex min-h-11 items-center self-start text-sm font-medium text-brand-800"
        >
          <Trans>and {count} more</Trans>
        </AppLink>
      ) : null}
    </section>
  )
}
