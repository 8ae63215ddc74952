import { Trans, useLingui } from '@lingui/react/macro'
import type { Keychain } from '../../../contract/keychains.ts'
import { useUpdateKeychain } from '../../api/keychains.ts'
import { keychainNameProblem } from '../../lib/keychain-name.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { useAppForm } from '../../ui/form.tsx'
import { toasts } from '../../ui/toast/store.ts'

/** The keychain's rename form: shown in edit mode only, so it loads (with the form library) then. */
export function RenameKeychainForm({ keychain }: { keychain: Keychain }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const updateKeychain = useUpdateKeychain(keychain.organizationId)
  const form = useAppForm({
    defaultValues: { name: keychain.name },
    onSubmit: async ({ value, formApi }) => {
      try {
        await updateKeychain.mutateAsync({ id: keychain.id, update: { name: value.name } })
        formApi.reset({ name: value.name.trim() })
        toasts.add({ severity: 'success', summary: t`The name has been changed.`, life: 4000 })
      } catch (error) {
        failed(t`The name could not be changed.`, error)
      }
    },
  })
  return (
    <form
      noValidate
      aria-label={t`Rename the keychain`}
      className="grid items-start gap-4 sm:grid-cols-[1fr_auto]"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.AppField
        name="name"
        validators={{
          onSubmit: ({ value }) => {
            const problem = keychainNameProblem(value)
            return problem ? i18n._(problem) : undefined
          },
        }}
      >
        {(field) => <field.TextField label={t`Name`} />}
      </form.AppField>
      <form.Subscribe selector={(state) => [state.isSubmitting, state.isDirty] as const}>
        {([isSubmitting, isDirty]) => (
          <Button type="submit" variant="secondary" className="sm:mt-7" isDisabled={isSubmitting || !isDirty}>
            <Trans>Rename</Trans>
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
