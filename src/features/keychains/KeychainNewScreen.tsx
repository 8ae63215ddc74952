import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Keychain } from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { useCreateKeychain } from '../../api/keychains.ts'
import { keychainNameProblem } from '../../lib/keychain-name.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'
import { custodianOptions } from './custodians.ts'

/** The new-keychain form, plain React state (no form library on the page's first load). */
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
  const [name, setName] = useState('')
  const [nameError, setNameError] = useState<string | undefined>()
  const [custodianId, setCustodianId] = useState('')
  const { pending, submit } = useSubmit(async () => {
    const problem = keychainNameProblem(name)
    setNameError(problem ? i18n._(problem) : undefined)
    if (problem) return
    try {
      const keychain = await createKeychain.mutateAsync({ name, custodianId: custodianId || null })
      toasts.add({ severity: 'success', summary: t`The keychain has been created.`, life: 4000 })
      onCreated(keychain)
    } catch (error) {
      failed(t`The keychain could not be created.`, error)
    }
  })
  return (
    <>
      <PageHeader title={<Trans>New keychain</Trans>} />
      <Card className="max-w-2xl">
        <form noValidate className="flex flex-col gap-5" onSubmit={(event) => void submit(event)}>
          <TextField
            label={t`Name`}
            name="name"
            isRequired
            value={name}
            onChange={(next) => {
              setName(next)
              setNameError(undefined)
            }}
            error={nameError}
          />
          <SelectField
            label={t`Custodian`}
            name="custodianId"
            value={custodianId}
            onChange={setCustodianId}
            options={[{ value: '', label: t`Nobody yet` }, ...custodianOptions(members)]}
          />
          <Button type="submit" className="self-start" isDisabled={pending}>
            {pending ? <Trans>Saving…</Trans> : <Trans>Create the keychain</Trans>}
          </Button>
        </form>
      </Card>
    </>
  )
}
