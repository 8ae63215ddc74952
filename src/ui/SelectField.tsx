import { type ReactNode, useId } from 'react'

type SelectOption = { value: string; label: string }

export type SelectFieldProps = {
  label: ReactNode
  name: string
  value: string
  options: SelectOption[]
  onChange: (value: string) => void
  error?: string | undefined
  description?: ReactNode
  isDisabled?: boolean
}

/** A native select: accessible, and the phone's own picker on mobile. */
export function SelectField({
  label,
  name,
  value,
  options,
  onChange,
  error,
  description,
  isDisabled,
}: SelectFieldProps) {
  const id = useId()
  return (
    // Never wider than its container: on a phone, a long option shrinks the field instead of widening the page.
    <div className="flex min-w-0 max-w-full flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        disabled={isDisabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || description ? `${id}-help` : undefined}
        onChange={(event) => onChange(event.target.value)}
        className="min-h-11 max-w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30 aria-invalid:border-red-600 disabled:bg-slate-100"
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error || description ? (
        <p
          id={`${id}-help`}
          className={error ? 'text-sm font-medium text-red-700' : 'text-sm text-slate-600'}
        >
          {error ?? description}
        </p>
      ) : null}
    </div>
  )
}
