import { Trans, useLingui } from '@lingui/react/macro'
import type { Keychain } from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { useCreateKeychain } from '../../api/keychains.ts'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { useAppForm } from '../../ui/form.tsx'
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
  const form = useAppForm({
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
          <form.AppField
            name="name"
            validators={{
              onSubmit: ({ value }) => {
                const problem = keychainNameProblem(value)
                return problem ? i18n._(problem) : undefined
              },
            }}
          >
            {(field) => <field.TextField label={t`Name`} isRequired />}
          </form.AppField>
          <form.AppField name="custodianId">
            {(field) => (
              <field.SelectField
                label={t`Custodian`}
                options={[{ value: '', label: t`Nobody yet` }, ...custodianOptions(members)]}
              />
            )}
          </form.AppField>
          <form.AppForm>
            <form.SubmitButton className="self-start" pending={<Trans>Saving…</Trans>}>
              <Trans>Create the keychain</Trans>
            </form.SubmitButton>
          </form.AppForm>
        </form>
      </Card>
    </>
  )
}
