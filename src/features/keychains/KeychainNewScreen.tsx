import { Trans, useLingui } from '@lingui/react/macro'
import { useForm } from '@tanstack/react-form'
import type { Keychain } from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { useCreateKeychain } from '../../api/keychains.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { custodianOptions } from './custodians.ts'
import { keychainNameProblem } from './name-check.ts'

export function KeychainNewScreen({
  organizationId,
  members,
  onCreated,
}: {
  organizationId: string
  members: Member[]
  onCreated: (keychain: Keychain) => void
}) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const createKeychain = useCreateKeychain(organizationId)
  const form = useForm({
    defaultValues: { name: '', custodianId: '' },
    onSubmit: async ({ value }) => {
      try {
        const keychain = await createKeychain.mutateAsync({
          name: value.name,
          custodianId: value.custodianId || null,
        })
        toasts.add({ severity: 'success', summary: t`The keychain has been created.`, life: 4000 })
        onCreated(keychain)
      } catch (error) {
        failed(t`The keychain could not be created.`, error)
      }
    },
  })
  return (
    <>
      <PageHeader title={<Trans>New keychain</Trans>} />
      <Card className="max-w-2xl">
        <form
          noValidate
          className="flex flex-col gap-5"
          onSubmit={(event) => {
            event.preventDefault()
            void form.handleSubmit()
          }}
        >
          <form.Field
            name="name"
            validators={{
              onSubmit: ({ value }) => {
                const problem = keychainNameProblem(value)
                return problem ? i18n._(problem) : undefined
              },
            }}
          >
            {(field) => (
              <TextField
                label={t`Name`}
                name={field.name}
                isRequired
                value={field.state.value}
                onChange={field.handleChange}
                onBlur={field.handleBlur}
                error={field.state.meta.errors[0]}
              />
            )}
          </form.Field>
          <form.Field name="custodianId">
            {(field) => (
              <SelectField
                label={t`Custodian`}
                name={field.name}
                value={field.state.value}
                options={[{ value: '', label: t`Nobody yet` }, ...custodianOptions(members)]}
                onChange={field.handleChange}
              />
            )}
          </form.Field>
          <form.Subscribe selector={(state) => state.isSubmitting}>
            {(isSubmitting) => (
              <Button type="submit" isDisabled={isSubmitting} className="self-start">
                {isSubmitting ? <Trans>Saving…</Trans> : <Trans>Create the keychain</Trans>}
              </Button>
            )}
          </form.Subscribe>
        </form>
      </Card>
    </>
  )
}
