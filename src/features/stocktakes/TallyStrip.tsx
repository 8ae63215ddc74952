import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { StocktakeCounts } from '../../../contract/stocktakes.ts'
import { useLocale } from '../../lib/use-locale.ts'

function Figure({ label, value, tone }: { label: ReactNode; value: number; tone: string }) {
  const locale = useLocale()
  return (
    <div className={`flex min-w-28 flex-1 flex-col rounded-xl border p-3 ${tone}`}>
      <dt className="text-sm font-medium">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{value.toLocaleString(locale)}</dd>
    </div>
  )
}

/** The tally in five figures; what is not found yet is "to find" while open and "missing" once closed. */
export function TallyStrip({ counts, closed }: { counts: StocktakeCounts; closed: boolean }) {
  return (
    <dl aria-label="tally" className="mb-4 flex flex-wrap gap-2" data-testid="tally">
      <Figure
        label={<Trans>Expected</Trans>}
        value={counts.expected}
        tone="border-slate-200 bg-white text-slate-900"
      />
      <Figure
        label={<Trans>Found</Trans>}
        value={counts.found}
        tone="border-emerald-200 bg-emerald-50 text-emerald-900"
      />
      <Figure
        label={<Trans>Misplaced</Trans>}
        value={counts.misplaced}
        tone="border-amber-200 bg-amber-50 text-amber-900"
      />
      <Figure
        label={closed ? <Trans>Missing</Trans> : <Trans>To find</Trans>}
        value={counts.missing}
        tone="border-red-200 bg-red-50 text-red-900"
      />
      <Figure
        label={<Trans>Unexpected</Trans>}
        value={counts.unexpected}
        tone="border-sky-300 bg-sky-50 text-sky-950"
      />
    </dl>
  )
}
