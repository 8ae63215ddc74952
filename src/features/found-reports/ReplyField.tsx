import { type ReactNode, useId } from 'react'
import { FieldHelp, fieldHelpIds } from '../../ui/FieldHelp.tsx'

/** A labelled multi-line text field (a reply to a finder holds a few lines). */
export function ReplyField({
  label,
  value,
  onChange,
  description,
  error,
  maxLength,
  isDisabled,
}: {
  label: ReactNode
  value: string
  onChange: (value: string) => void
  description?: ReactNode
  error?: string | undefined
  maxLength: number
  isDisabled?: boolean
}) {
  const id = useId()
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        name="message"
        rows={5}
        value={value}
        maxLength={maxLength}
        disabled={isDisabled}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={fieldHelpIds(id, { description, error })}
        className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30 aria-invalid:border-red-600 disabled:bg-slate-100"
      />
      <FieldHelp id={id} description={description} error={error} />
    </div>
  )
}
