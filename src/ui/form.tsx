import { createFormHook, createFormHookContexts } from '@tanstack/react-form'
import type { ReactNode } from 'react'
import { Button, type ButtonProps } from './Button.tsx'
import { type SelectFieldProps, SelectField as SelectInput } from './SelectField.tsx'
import { type TextFieldProps, TextField as TextInput } from './TextField.tsx'

// The app's forms: TanStack Form with our fields bound to it. `form.AppField` hands its render function a
// field that already knows its name, value, change and blur handlers and first error, so a form states only
// what differs (label, type, hints): `{(field) => <field.TextField label={t`Name`} />}`. The date field is bound
// apart (`BoundDateField`, form-date-field.tsx): only the transfer form has one, the other forms do not load it.
const { fieldContext, formContext, useFieldContext, useFormContext } = createFormHookContexts()

export { useFieldContext }

/** What a bound field is told by its form; the rest is the field's own props. */
export type Bound = 'name' | 'value' | 'onChange' | 'onBlur' | 'error'

/** The field's first error, as text: validators answer a translated string. */
export const firstError = (errors: unknown[]) => (errors[0] === undefined ? undefined : String(errors[0]))

function BoundTextField(props: Omit<TextFieldProps, Bound>) {
  const field = useFieldContext<string>()
  return (
    <TextInput
      {...props}
      name={field.name}
      value={field.state.value}
      onChange={field.handleChange}
      onBlur={field.handleBlur}
      error={firstError(field.state.meta.errors)}
    />
  )
}

function BoundSelectField(props: Omit<SelectFieldProps, Bound>) {
  const field = useFieldContext<string>()
  return (
    <SelectInput
      {...props}
      name={field.name}
      value={field.state.value}
      onChange={field.handleChange}
      error={firstError(field.state.meta.errors)}
    />
  )
}

/** The form's submit button: disabled while the form submits, saying `pending` then. */
function SubmitButton({
  children,
  pending,
  isDisabled,
  ...props
}: Omit<ButtonProps, 'type' | 'children'> & { children: ReactNode; pending?: ReactNode }) {
  const form = useFormContext()
  return (
    <form.Subscribe selector={(state) => state.isSubmitting}>
      {(isSubmitting) => (
        <Button {...props} type="submit" isDisabled={isSubmitting || isDisabled}>
          {isSubmitting && pending ? pending : children}
        </Button>
      )}
    </form.Subscribe>
  )
}

export const { useAppForm } = createFormHook({
  fieldContext,
  formContext,
  fieldComponents: { TextField: BoundTextField, SelectField: BoundSelectField },
  formComponents: { SubmitButton },
})
