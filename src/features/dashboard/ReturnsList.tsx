import { Trans } from '@lingui/react/macro'
import { type ReactNode, useId } from 'react'
import type { DashboardReturn } from '../../../contract/transfers.ts'
import { formatCalendarDate, formatNumber } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'

/**
 * Keychains due back (today, or late): each leads to its keychain's page, where its transfer can be chased or
 * its return confirmed; `all` leads to the full filtered list when there are more than shown.
 */
export function ReturnsList({
  title,
  items,
  total,
  all,
  late,
}: {
  title: ReactNode
  items: DashboardReturn[]
  total: number
  all: string
  late: boolean
}) {
  const id = useId()
  const href = useHref()
  const locale = useLocale()
  if (items.length === 0) return null
  const count = formatNumber(total, locale)
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="font-semibold text-slate-900">
        {title}
      </h2>
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm">
        {items.map((item) => {
          const holder = personName(item.holder)
          const due = formatCalendarDate(item.toDate, locale)
          return (
            <li
              key={item.transferId}
              className="flex flex-wrap items-center justify-between gap-x-4 px-3 py-1"
            >
              <AppLink
                href={href(`/app/keychains/${item.keychainId}`)}
                className="inline-flex min-h-11 items-center font-medium text-brand-800"
              >
                {item.keychainName}
              </AppLink>
              <span className="text-sm text-slate-700">
                {late ? (
                  <Trans>
                    {holder} · due back on {due}
                  </Trans>
                ) : (
                  holder
                )}
              </span>
            </li>
          )
        })}
      </ul>
      {total > items.length ? (
        <AppLink
          href={all}
          className="inline-flex min-h-11 items-center self-start text-sm font-medium text-brand-800"
        >
          <Trans>See all {count}</Trans>
        </AppLink>
      ) : null}
    </section>
  )
}
