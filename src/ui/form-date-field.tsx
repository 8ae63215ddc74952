import { DateField, type DateFieldProps } from './DateField.tsx'
import { type Bound, firstError, useFieldContext } from './form.tsx'

/** A calendar day bound to its `form.AppField`, as `field.TextField` is (kept apart from the form hook's fields). */
export function BoundDateField(props: Omit<DateFieldProps, Bound>) {
  const field = useFieldContext<string>()
  return (
    <DateField
      {...props}
      name={field.name}
      value={field.state.value}
      onChange={field.handleChange}
      error={firstError(field.state.meta.errors)}
    />
  )
}
