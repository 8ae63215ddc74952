import { Trans } from '@lingui/react/macro'
import type { StocktakeDue } from '../../contract/stocktakes.ts'
import { formatCalendarDate } from '../lib/format.ts'
import { useLocale } from '../lib/use-locale.ts'

/** The places whose recurring stocktake is due, and those overdue (in red), each with its day. */
export function StocktakesDueList({ due }: { due: readonly StocktakeDue[] }) {
  const locale = useLocale()
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {due.map((entry) => (
        <li key={entry.place.id} className={entry.overdue ? 'font-medium text-red-800' : 'text-slate-800'}>
          {entry.overdue ? (
            <Trans>
              {entry.place.name}: overdue since {formatCalendarDate(entry.dueOn, locale)}
            </Trans>
          ) : (
            <Trans>
              {entry.place.name}: due on {formatCalendarDate(entry.dueOn, locale)}
            </Trans>
          )}
        </li>
      ))}
    </ul>
  )
}
