import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import type { PriceBreakdown } from '../../contract/pricing.ts'
import { formatMoney } from '../lib/format.ts'
import { useLocale } from '../lib/use-locale.ts'

/**
 * Subtotal, shipping ("free" when free), tax and total, in the reader's money format. Lines are priced at their
 * quantity tier, so the subtotal is their sum; a tier saving shows above it as the list price less the discount.
 */
export function PricePreview({ breakdown }: { breakdown: Omit<PriceBreakdown, 'unitAmountInCents'> }) {
  const { t } = useLingui()
  const locale = useLocale()
  const money = (cents: number) => formatMoney(cents, locale)
  const row = (label: ReactNode, value: ReactNode, strong = false) => (
    <div
      className={`flex justify-between gap-4 ${strong ? 'border-t border-slate-200 pt-2 text-base font-bold text-slate-900' : ''}`}
    >
      <dt>{label}</dt>
      <dd className="tabular-nums">{value}</dd>
    </div>
  )
  return (
    <dl aria-label={t`Price`} className="flex flex-col gap-1.5 text-sm text-slate-800">
      {breakdown.discountInCents > 0 ? (
        <>
          {row(<Trans>List price</Trans>, money(breakdown.subtotalInCents + breakdown.discountInCents))}
          {row(<Trans>Quantity discount</Trans>, `− ${money(breakdown.discountInCents)}`)}
        </>
      ) : null}
      {row(<Trans>Subtotal</Trans>, money(breakdown.subtotalInCents))}
      {/* Nothing to ship (a plan alone): no shipping line at all. */}
      {breakdown.freeShipping || breakdown.shippingInCents > 0
        ? row(
            <Trans>Shipping</Trans>,
            breakdown.freeShipping ? <Trans>Free</Trans> : money(breakdown.shippingInCents),
          )
        : null}
      {row(<Trans>VAT</Trans>, money(breakdown.taxInCents))}
      {row(<Trans>Total</Trans>, money(breakdown.totalInCents), true)}
    </dl>
  )
}
