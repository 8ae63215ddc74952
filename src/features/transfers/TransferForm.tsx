import { Trans, useLingui } from '@lingui/react/macro'
import { useStore } from '@tanstack/react-form'
import { lazy, Suspense, useState } from 'react'
import { calendarDayIn } from '../../../contract/calendar-day.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Member } from '../../../contract/organizations.ts'
import { shiftCalendarDay, type Transfer, type TransferCreate } from '../../../contract/transfers.ts'
import { useCreateTransfer } from '../../api/transfers.ts'
import { ApiError, refusedWith } from '../../lib/api.ts'
import { emailProblem } from '../../lib/email-field.ts'
import { personName, ROLE_LABELS } from '../../lib/labels.ts'
import { refusalMessage } from '../../lib/refusal-message.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { useAppForm } from '../../ui/form.tsx'
import { BoundDateField } from '../../ui/form-date-field.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { EndDatePresets } from './EndDatePresets.tsx'

// The warning waits on a request of its own (the keychain's other transfers on those days): its code loads
// beside it rather than with the form.
const OverlapWarning = lazy(() =>
  import('./OverlapWarning.tsx').then((module) => ({ default: module.OverlapWarning })),
)

const NEW_RECIPIENT = 'email'

const dayAfter = (day: string) => shiftCalendarDay(day, 1)

type Values = { recipient: string; email: string; fromDate: string; toDate: string }

/**
 * Authorizes a transfer of the keychain: to a member or contact of the organization, or to a new e-mail address
 * (invited as a contact), from a day (today or later, in the organization's time zone) to the day it comes back.
 */
export function TransferForm({
  keychainId,
  members,
  custodianId,
  timeZone,
  onCreated,
  onSubscriptionMissing,
  onCancel,
}: {
  keychainId: string
  /** The organization's members and contacts who can receive it. */
  members: Member[]
  custodianId: string | null
  timeZone: string
  onCreated: (transfer: Transfer) => void
  onSubscriptionMissing: () => void
  onCancel?: () => void
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const createTransfer = useCreateTransfer(keychainId)
  const [problem, setProblem] = useState<string | null>(null)
  const firstDay = calendarDayIn(timeZone, new Date())
  const candidates = members.filter((member) => member.status !== 'DISABLED' && member.id !== custodianId)
  /** What the server refused, in the reader's words. */
  const problemOf = (error: unknown): string => {
    const issue = error instanceof ApiError ? error.details?.issues?.[0]?.path : undefined
    if (refusedWith(error, 400) && issue === 'fromDate') return t`The from-date cannot be in the past.`
    if (refusedWith(error, 400) && issue?.startsWith('recipient'))
      return t`This person can no longer receive keychains from the organization (their membership is disabled).`
    if (refusedWith(error, 409, ErrorCode.conflict)) return t`This person already holds the keychain.`
    if (refusedWith(error, 404)) return t`This keychain no longer exists.`
    return refusalMessage(
      error,
      t`The transfer could not be authorized. Check your connection and try again.`,
    )
  }
  const form = useAppForm({
    defaultValues: { recipient: '', email: '', fromDate: firstDay, toDate: '' } as Values,
    onSubmit: async ({ value, formApi }) => {
      setProblem(null)
      const recipient: TransferCreate['recipient'] =
        value.recipient === NEW_RECIPIENT
          ? { kind: 'email', email: value.email, locale }
          : { kind: 'member', userId: value.recipient }
      try {
        const transfer = await createTransfer.mutateAsync({
          recipient,
          fromDate: value.fromDate,
          toDate: value.toDate,
        })
        formApi.reset()
        toasts.add({
          severity: 'success',
          summary: t`Transfer authorized. ${personName(transfer.recipient)} has been sent an e-mail.`,
          life: 6000,
        })
        onCreated(transfer)
      } catch (error) {
        if (error instanceof ApiError && error.code === ErrorCode.subscriptionRequired) {
          onSubscriptionMissing()
          return
        }
        setProblem(problemOf(error))
      }
    },
  })
  useUnsavedChanges(useStore(form.store, (state) => state.isDirty))
  const choice = useStore(form.store, (state) => state.values.recipient)
  const fromDate = useStore(form.store, (state) => state.values.fromDate)
  const toDate = useStore(form.store, (state) => state.values.toDate)

  return (
    <form
      noValidate
      aria-label={t`Authorize a transfer`}
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.AppField
        name="recipient"
        validators={{ onSubmit: ({ value }) => (value ? undefined : t`Choose who receives the keychain.`) }}
      >
        {(field) => (
          <field.SelectField
            label={t`Recipient`}
            options={[
              { value: '', label: t`Choose a person…` },
              ...candidates.map((member) => ({
                value: member.id,
                label: `${personName(member)} (${i18n._(ROLE_LABELS[member.role])})`,
              })),
              { value: NEW_RECIPIENT, label: t`Someone else, by e-mail (invited as a contact)` },
            ]}
          />
        )}
      </form.AppField>
      {choice === NEW_RECIPIENT ? (
        <form.AppField
          name="email"
          validators={{
            onSubmit: ({ value }) => emailProblem(value, i18n),
          }}
        >
          {(field) => (
            <field.TextField
              label={t`Recipient's e-mail`}
              type="email"
              inputMode="email"
              autoComplete="off"
              description={<Trans>They will be invited as a contact and receive the pickup details.</Trans>}
            />
          )}
        </form.AppField>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <form.AppField
          name="fromDate"
          validators={{
            onSubmit: ({ value }) =>
              !value
                ? t`Choose the first day of the pickup.`
                : value < firstDay
                  ? t`The from-date cannot be in the past.`
                  : undefined,
          }}
        >
          {() => (
            <BoundDateField
              label={t`From`}
              min={firstDay}
              description={<Trans>The recipient can pick it up from this day.</Trans>}
            />
          )}
        </form.AppField>
        <form.AppField
          name="toDate"
          validators={{
            onSubmit: ({ value, fieldApi }) => {
              const from = fieldApi.form.getFieldValue('fromDate')
              if (!value) return t`Choose the day the keychain comes back.`
              return from && value <= from ? t`The to-date must be after the from-date.` : undefined
            },
          }}
        >
          {() => (
            <div className="flex flex-col gap-2">
              <BoundDateField
                label={t`To`}
                min={fromDate ? dayAfter(fromDate) : dayAfter(firstDay)}
                description={<Trans>The day it is due back at the organization.</Trans>}
              />
              <EndDatePresets
                today={firstDay}
                fromDate={fromDate}
                value={toDate}
                onPick={(day) => form.setFieldValue('toDate', day)}
              />
            </div>
          )}
        </form.AppField>
      </div>
      <Suspense fallback={null}>
        <OverlapWarning keychainId={keychainId} fromDate={fromDate} toDate={toDate} />
      </Suspense>
      {problem ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 font-medium text-red-900">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <form.AppForm>
          <form.SubmitButton pending={<Trans>Authorizing…</Trans>}>
            <Trans>Authorize the transfer</Trans>
          </form.SubmitButton>
        </form.AppForm>
        {onCancel ? (
          <Button variant="ghost" onPress={onCancel}>
            <Trans>Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  )
}
