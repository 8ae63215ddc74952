import { Trans, useLingui } from '@lingui/react/macro'
import { CircleCheck } from 'lucide-react'
import { useState } from 'react'
import { sendFoundReport } from '../../api/tags.ts'
import { ApiError } from '../../lib/api.ts'
import { Button } from '../../ui/Button.tsx'
import { useAppForm } from '../../ui/form.tsx'
import { toasts } from '../../ui/toast/store.ts'

/** A finder leaves a message and a way to reach them; the organization is told by mail, nobody's address is shown. */
export function FoundReportForm({ publicId }: { publicId: string }) {
  const { t } = useLingui()
  const [sent, setSent] = useState(false)
  const form = useAppForm({
    defaultValues: { message: '', contact: '' },
    onSubmit: async ({ value }) => {
      try {
        await sendFoundReport(publicId, value)
        setSent(true)
      } catch (error) {
        const limited = error instanceof ApiError && error.status === 429
        toasts.add({
          severity: 'error',
          summary: limited
            ? t`Too many messages. Please try again later.`
            : t`Your message could not be sent.`,
          life: 6000,
        })
      }
    },
  })
  if (sent) {
    return (
      <p
        role="status"
        className="flex items-center gap-2 rounded-lg bg-emerald-50 p-4 font-medium text-emerald-950"
      >
        <CircleCheck aria-hidden className="size-5" />
        <Trans>Thank you! The owners have been told and will contact you.</Trans>
      </p>
    )
  }
  const required = (message: string) => ({
    onSubmit: ({ value }: { value: string }) => (value.trim() === '' ? message : undefined),
  })
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.AppField name="message" validators={required(t`Tell them where you found the keys.`)}>
        {(field) => <field.TextField label={t`Where did you find them?`} maxLength={2000} />}
      </form.AppField>
      <form.AppField name="contact" validators={required(t`Leave a phone number or an e-mail address.`)}>
        {(field) => (
          <field.TextField
            label={t`How can they reach you?`}
            maxLength={200}
            description={t`A phone number or an e-mail address. The owners see a phone number; an e-mail address stays private and their reply comes through Trousseau.`}
          />
        )}
      </form.AppField>
      <form.Subscribe selector={(state) => state.isSubmitting}>
        {(isSubmitting) => (
          <Button type="submit" isDisabled={isSubmitting} className="self-start">
            <Trans>Tell the owners</Trans>
          </Button>
        )}
      </form.Subscribe>
    </form>
  )
}
