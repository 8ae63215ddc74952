import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { ClipboardCheck } from 'lucide-react'
import { stocktakesDueQuery } from '../../api/stocktakes.ts'
import { formatCalendarDate } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Card } from '../../ui/Card.tsx'

/** The places whose recurring stocktake is due or overdue; nothing when none is. */
export function StocktakesDue({ organizationId }: { organizationId: string }) {
  const href = useHref()
  const locale = useLocale()
  const due = useQuery(stocktakesDueQuery(organizationId))
  if (!due.data || due.data.length === 0) return null
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ClipboardCheck aria-hidden className="size-5 text-brand-700" />
        <Trans>Stocktakes due</Trans>
      </h2>
      <ul className="flex flex-col gap-1 text-sm">
        {due.data.map((entry) => (
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
      <AppLink href={href('/app/stocktakes')} className="text-sm font-medium text-brand-700 underline">
        <Trans>Stocktakes</Trans>
      </AppLink>
    </Card>
  )
}
