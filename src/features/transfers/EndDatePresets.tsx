import { Trans, useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import { buttonClass } from '../../ui/Button.tsx'

/** The last day of the month of a `YYYY-MM-DD` day. */
export function endOfMonth(day: string): string {
  const [year, month] = day.split('-').map(Number) as [number, number]
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10)
}

/**
 * The usual due-back days, one tap each: tomorrow, a week after the first day, the end of its month. Only those
 * after the from-date are offered (the to-date comes after it); two that fall on the same day show once.
 */
export function endDatePresets(today: string, fromDate: string): { id: string; day: string }[] {
  const start = fromDate || today
  const presets = [
    { id: 'tomorrow', day: shiftCalendarDay(today, 1) },
    { id: 'week', day: shiftCalendarDay(start, 7) },
    { id: 'month', day: endOfMonth(start) },
  ]
  const seen = new Set<string>()
  return presets.filter((preset) => {
    if (preset.day <= start || seen.has(preset.day)) return false
    seen.add(preset.day)
    return true
  })
}

export function EndDatePresets({
  today,
  fromDate,
  value,
  onPick,
}: {
  today: string
  fromDate: string
  value: string
  onPick: (day: string) => void
}) {
  const { t } = useLingui()
  const labels: Record<string, ReactNode> = {
    tomorrow: <Trans>Tomorrow</Trans>,
    week: <Trans>One week</Trans>,
    month: <Trans>End of the month</Trans>,
  }
  const presets = endDatePresets(today, fromDate)
  if (presets.length === 0) return null
  return (
    <fieldset className="flex flex-wrap gap-2">
      <legend className="sr-only">{t`Due back`}</legend>
      {presets.map((preset) => (
        <button
          key={preset.id}
          type="button"
          aria-pressed={value === preset.day}
          className={buttonClass(value === preset.day ? 'primary' : 'secondary', 'px-3 py-1')}
          onClick={() => onPick(preset.day)}
        >
          {labels[preset.id]}
        </button>
      ))}
    </fieldset>
  )
}
