import type { ReactNode } from 'react'
import { TextField as AriaTextField, FieldError, Input, Label, Text } from 'react-aria-components'

export type TextFieldProps = {
  label: ReactNode
  name: string
  value: string
  onChange: (value: string) => void
  onBlur?: () => void
  type?: 'text' | 'email' | 'tel'
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
}

export function TextField({ label, description, error, value, onChange, ...props }: TextFieldProps) {
  return (
    <AriaTextField
      {...props}
      value={value}
      onChange={onChange}
      isInvalid={Boolean(error)}
      validationBehavior="aria"
      className="flex flex-col gap-1.5"
    >
      <Label className="text-sm font-medium text-slate-800">{label}</Label>
      <Input className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-500 focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30 invalid:border-red-600 read-only:bg-slate-100 read-only:text-slate-700" />
      {description ? (
        <Text slot="description" className="text-sm text-slate-600">
          {description}
        </Text>
      ) : null}
      <FieldError className="text-sm font-medium text-red-700">{error}</FieldError>
    </AriaTextField>
  )
}
