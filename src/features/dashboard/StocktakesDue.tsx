import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { ClipboardCheck } from 'lucide-react'
import { stocktakesDueQuery } from '../../api/stocktakes.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Card } from '../../ui/Card.tsx'
import { StocktakesDueList } from '../../ui/StocktakesDueList.tsx'

/** The places whose recurring stocktake is due or overdue; nothing when none is. */
export function StocktakesDue({ organizationId }: { organizationId: string }) {
  const href = useHref()
  const due = useQuery(stocktakesDueQuery(organizationId))
  if (!due.data || due.data.length === 0) return null
  return (
    <Card className="flex flex-col gap-3">
      <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <ClipboardCheck aria-hidden className="size-5 text-brand-700" />
        <Trans>Stocktakes due</Trans>
      </h2>
      <StocktakesDueList due={due.data} />
      <AppLink href={href('/app/stocktakes')} className="text-sm font-medium text-brand-700 underline">
        <Trans>Stocktakes</Trans>
      </AppLink>
    </Card>
  )
}
