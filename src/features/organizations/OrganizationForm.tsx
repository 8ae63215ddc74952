import { Trans, useLingui } from '@lingui/react/macro'
import { useStore } from '@tanstack/react-form'
import type { Locale } from '../../../contract/locale.ts'
import type { OrganizationCreate } from '../../../contract/organizations.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { Button } from '../../ui/Button.tsx'
import { useAppForm } from '../../ui/form.tsx'
import { countryOptions } from './countries.ts'

type Values = {
  name: string
  line1: string
  line2: string
  city: string
  postalCode: string
  country: string
}

/** Name and address of an organization; every field but the second address line is required. */
export function OrganizationForm({
  locale,
  onSubmit,
  submitLabel,
}: {
  locale: Locale
  onSubmit: (value: OrganizationCreate) => Promise<void>
  submitLabel: React.ReactNode
}) {
  const { t } = useLingui()
  const form = useAppForm({
    defaultValues: { name: '', line1: '', line2: '', city: '', postalCode: '', country: 'FR' } as Values,
    onSubmit: async ({ value }) => {
      const { name, ...address } = value
      await onSubmit({ name, address })
    },
  })
  useUnsavedChanges(useStore(form.store, (state) => state.isDirty && !state.isSubmitted))
  const required = (message: string, max: number) => ({
    onSubmit: ({ value }: { value: string }) => {
      if (value.trim() === '') return message
      return value.trim().length > max ? t`At most ${max} characters.` : undefined
    },
  })
  const text = (
    name: keyof Values,
    label: string,
    validators: ReturnType<typeof required> | undefined,
    autoComplete: string,
  ) => (
    <form.AppField name={name} validators={validators}>
      {(field) => (
        <field.TextField label={label} autoComplete={autoComplete} isRequired={validators !== undefined} />
      )}
    </form.AppField>
  )
  return (
    <form
      noValidate
      className="grid gap-5 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <div className="sm:col-span-2">
        {text('name', t`Name`, required(t`The name is required.`, 120), 'organization')}
      </div>
      <div className="sm:col-span-2">
        {text('line1', t`Address`, required(t`The address is required.`, 200), 'address-line1')}
      </div>
      <div className="sm:col-span-2">
        {text('line2', t`Address line 2 (optional)`, undefined, 'address-line2')}
      </div>
      {text('postalCode', t`Postal code`, required(t`The postal code is required.`, 20), 'postal-code')}
      {text('city', t`City`, required(t`The city is required.`, 100), 'address-level2')}
      <form.AppField
        name="country"
        validators={{ onSubmit: ({ value }) => (value ? undefined : t`The country is required.`) }}
      >
        {(field) => <field.SelectField label={t`Country`} options={countryOptions(locale)} />}
      </form.AppField>
      <div className="sm:col-span-2">
        <form.Subscribe selector={(state) => state.isSubmitting}>
          {(isSubmitting) => (
            <Button type="submit" isDisabled={isSubmitting}>
              {isSubmitting ? <Trans>Saving…</Trans> : submitLabel}
            </Button>
          )}
        </form.Subscribe>
      </div>
    </form>
  )
}
