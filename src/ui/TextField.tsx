import { type ChangeEvent, type ReactNode, useId } from 'react'
import { FieldHelp, fieldHelpIds } from './FieldHelp.tsx'

export type TextFieldProps = {
  label: ReactNode
  name: string
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  /** `date`: the phone's own date picker, `YYYY-MM-DD`, from `min` on. */
  type?: 'text' | 'email' | 'tel' | 'date' | 'number' | 'month' | 'url' | 'password'
  min?: string
  description?: ReactNode
  error?: string | undefined
  autoComplete?: string
  inputMode?: 'text' | 'email' | 'tel' | 'numeric'
  isRequired?: boolean
  isReadOnly?: boolean
  isDisabled?: boolean
  autoFocus?: boolean
  maxLength?: number
  placeholder?: string
  /** Lines shown: a multi-line field (`<textarea>`), for a message of a few lines; `type` is then unused. */
  rows?: number
}

const FIELD_CLASS =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30 aria-invalid:border-red-600 read-only:bg-slate-100 read-only:text-slate-700 disabled:bg-slate-100'

/** A labelled text input (or, with `rows`, text area) with its description and error, tied together for assistive technology. */
export function TextField({
  label,
  description,
  error,
  value,
  onChange,
  isRequired,
  isReadOnly,
  isDisabled,
  type = 'text',
  min,
  inputMode,
  rows,
  ...props
}: TextFieldProps) {
  const id = useId()
  const field = {
    ...props,
    id,
    value,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => onChange(event.target.value),
    required: isRequired,
    readOnly: isReadOnly,
    disabled: isDisabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': fieldHelpIds(id, { description, error }),
  }
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {rows ? (
        <textarea {...field} rows={rows} className={FIELD_CLASS} />
      ) : (
        <input {...field} type={type} min={min} inputMode={inputMode} className={`min-h-11 ${FIELD_CLASS}`} />
      )}
      <FieldHelp id={id} description={description} error={error} />
    </div>
  )
}
