import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { KeyType } from '../../../contract/keychains.ts'
import { unusedTagsQuery, useAddKey } from '../../api/keychains.ts'
import { ApiError } from '../../lib/api.ts'
import { Button } from '../../ui/Button.tsx'
import { useAppForm } from '../../ui/form.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'

/** The form that adds a key to a keychain: shown in edit mode only, so it loads (with the form library) then. */
export function AddKeyForm({ organizationId, keychainId }: { organizationId: string; keychainId: string }) {
  const { t } = useLingui()
  const addKey = useAddKey(organizationId, keychainId)
  const [tagSearch, setTagSearch] = useState('')
  const tags = useQuery(unusedTagsQuery(organizationId, tagSearch.trim()))
  const form = useAppForm({
    defaultValues: { name: '', type: 'KEY' as KeyType, tagId: '' },
    onSubmit: async ({ value, formApi }) => {
      try {
        await addKey.mutateAsync(
          value.type === 'TAG'
            ? { type: 'TAG', name: value.name, tagId: value.tagId }
            : { type: 'KEY', name: value.name },
        )
        formApi.reset()
        toasts.add({ severity: 'success', summary: t`The key has been added.`, life: 4000 })
      } catch (error) {
        const taken = error instanceof ApiError && error.status === 409
        toasts.add({
          severity: 'error',
          summary: taken ? t`This tag is already on another key.` : t`The key could not be added.`,
          life: 6000,
        })
      }
    },
  })
  const tagOptions = (tags.data ?? []).map((tag) => ({ value: tag.id, label: `${tag.code} — ${tag.name}` }))
  return (
    <form
      noValidate
      aria-label={t`Add a key`}
      className="grid items-start gap-4 sm:grid-cols-[1fr_10rem]"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.AppField
        name="name"
        validators={{
          onSubmit: ({ value }) => (value.trim() === '' ? t`The key name is required.` : undefined),
        }}
      >
        {(field) => <field.TextField label={t`Key name`} />}
      </form.AppField>
      <form.Field name="type">
        {(field) => (
          <SelectField
            label={t`Type`}
            name={field.name}
            value={field.state.value}
            options={[
              { value: 'KEY', label: t`Key` },
              { value: 'TAG', label: t`Tag` },
            ]}
            onChange={(value) => field.handleChange(value as KeyType)}
          />
        )}
      </form.Field>
      <form.Subscribe selector={(state) => state.values.type}>
        {(type) =>
          type === 'TAG' ? (
            <div className="sm:col-span-2">
              <div className="mb-3">
                <TextField
                  label={t`Find a free tag (code or name)`}
                  name="tagSearch"
                  value={tagSearch}
                  onChange={setTagSearch}
                  placeholder="AGC-00342"
                />
              </div>
              <form.AppField
                name="tagId"
                validators={{
                  onSubmit: ({ value }) => (value ? undefined : t`Choose a tag that is not on a key yet.`),
                }}
              >
                {(field) => (
                  <field.SelectField
                    label={t`Tag`}
                    options={[
                      {
                        value: '',
                        label: tagOptions.length ? t`Choose a tag` : t`No free tag: order tags first`,
                      },
                      ...tagOptions,
                    ]}
                  />
                )}
              </form.AppField>
            </div>
          ) : null
        }
      </form.Subscribe>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(isSubmitting) => (
          <Button type="submit" variant="secondary" isDisabled={isSubmitting} className="justify-self-start">
            <Trans>Add the key</Trans>
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
