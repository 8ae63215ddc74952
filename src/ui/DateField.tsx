import { Trans } from '@lingui/react/macro'
import { type ReactNode, useId } from 'react'
import { intlLocaleOf } from '../lib/format.ts'
import { useLocale } from '../lib/use-locale.ts'
import { FieldHelp, fieldHelpIds } from './FieldHelp.tsx'

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** The chosen day written out in the app's language ("mardi 26 novembre 2026"), or null when none is. */
function spelledOut(value: string, locale: string): string | null {
  if (!DAY.test(value)) return null
  const date = new Date(`${value}T00:00:00Z`)
  if (Number.isNaN(date.getTime())) return null
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeZone: 'UTC' }).format(date)
}

export type DateFieldProps = {
  label: ReactNode
  name: string
  value: string
  onChange: (value: string) => void
  /** The first day that may be picked. */
  min?: string | undefined
  error?: string | undefined
  description?: ReactNode
}

/**
 * A calendar day (`YYYY-MM-DD`, '' when empty) through the platform's own date input: the phone's date wheel
 * or the desktop browser's calendar, with nothing to download. The browser writes the day in its own
 * language's order, so the chosen day is also spelled out in the app's language below the field.
 */
export function DateField({ label, name, value, onChange, min, error, description }: DateFieldProps) {
  const id = useId()
  const locale = intlLocaleOf(useLocale())
  const chosen = spelledOut(value, locale)
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="date"
        lang={locale}
        value={value}
        min={min}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={[`${id}-chosen`, fieldHelpIds(id, { description, error })]
          .filter(Boolean)
          .join(' ')}
        className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30 aria-invalid:border-red-600"
      />
      <p id={`${id}-chosen`} className="min-h-5 text-sm font-medium text-slate-800" aria-live="polite">
        {chosen ?? <Trans>No day chosen yet.</Trans>}
      </p>
      <FieldHelp id={id} description={description} error={error} />
    </div>
  )
}
