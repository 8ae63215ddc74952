import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useState } from 'react'
import { isWebhookUrl, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../../../contract/webhooks.ts'
import { useCreateWebhook } from '../../api/webhooks.ts'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useWebhookFailureToast } from './failure.ts'
import { WEBHOOK_EVENT_LABELS } from './labels.ts'

/** Subscribes a URL to events; the secret the server answers goes up to the screen, to be shown once. */
export function NewWebhookForm({
  organizationId,
  onCreated,
}: {
  organizationId: string
  onCreated: (secret: string) => void
}) {
  const { t, i18n } = useLingui()
  const create = useCreateWebhook(organizationId)
  const failed = useWebhookFailureToast()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [types, setTypes] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES])
  const [tried, setTried] = useState(false)
  const urlError =
    tried && !isWebhookUrl(url.trim())
      ? t`Enter an https:// address (http:// only for this machine: localhost, 127.0.0.1).`
      : undefined
  const typesError = tried && types.length === 0 ? t`Choose at least one event.` : undefined

  function submit(event: FormEvent) {
    event.preventDefault()
    setTried(true)
    if (!isWebhookUrl(url.trim()) || types.length === 0) return
    create.mutate(
      { url: url.trim(), description, eventTypes: types },
      {
        onSuccess: (answer) => {
          setUrl('')
          setDescription('')
          setTried(false)
          onCreated(answer.secret)
        },
        onError: (error) => failed(t`The webhook could not be added.`, error),
      },
    )
  }

  return (
    <Card className="mb-6 max-w-3xl">
      <h2 className="mb-3 text-base font-semibold">
        <Trans>Add a webhook</Trans>
      </h2>
      <form noValidate onSubmit={submit} className="flex flex-col gap-3">
        <TextField
          label={t`Address (URL)`}
          name="url"
          value={url}
          onChange={setUrl}
          error={urlError}
          isRequired
          placeholder="https://"
          maxLength={2000}
        />
        <TextField
          label={t`Description`}
          name="description"
          value={description}
          onChange={setDescription}
          maxLength={200}
        />
        <fieldset>
          <legend className="mb-1 text-sm font-medium">
            <Trans>Events to send</Trans>
          </legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="size-4"
                  name="eventTypes"
                  value={type}
                  checked={types.includes(type)}
                  onChange={(event) => {
                    // Read now: React clears currentTarget before it runs the updater.
                    const checked = event.currentTarget.checked
                    setTypes((list) => (checked ? [...list, type] : list.filter((each) => each !== type)))
                  }}
                />
                {i18n._(WEBHOOK_EVENT_LABELS[type])}
              </label>
            ))}
          </div>
          {typesError ? <p className="mt-1 text-sm text-red-700">{typesError}</p> : null}
        </fieldset>
        <Button type="submit" className="self-start" isDisabled={create.isPending}>
          <Trans>Add the webhook</Trans>
        </Button>
      </form>
    </Card>
  )
}
