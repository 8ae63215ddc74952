import { useLingui } from '@lingui/react/macro'

/**
 * This month's transfers against the plan's allowance, as a native meter (its low and high marks at 80 % and
 * 100 % of the allowance); on the plans page and the dashboard.
 */
export function AllowanceMeter({ used, allowed }: { used: number; allowed: number }) {
  const { t } = useLingui()
  return (
    <meter
      aria-label={t`Transfers used this month`}
      min={0}
      max={Math.max(allowed, 1)}
      value={Math.min(used, allowed)}
      low={allowed * 0.8}
      high={allowed}
      optimum={0}
      className="h-3 w-full"
    >
      {t`${used} of ${allowed}`}
    </meter>
  )
}
