import { Trans, useLingui } from '@lingui/react/macro'
import { useStore } from '@tanstack/react-form'
import { lazy, Suspense } from 'react'
import * as v from 'valibot'
import { PhoneSchema, type Profile } from '../../../contract/auth.ts'
import { useUpdateProfile } from '../../api/profile.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { useAppForm } from '../../ui/form.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { CalendarFeedsCard } from './CalendarFeedsCard.tsx'

const PersonalTokensCard = lazy(() => import('./PersonalTokensCard.tsx'))

export function ProfileScreen({ profile }: { profile: Profile }) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const updateProfile = useUpdateProfile()
  const form = useAppForm({
    defaultValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      phoneNumber: profile.phoneNumber,
    },
    onSubmit: async ({ value, formApi }) => {
      try {
        const updated = await updateProfile.mutateAsync(value)
        formApi.reset({
          firstName: updated.firstName,
          lastName: updated.lastName,
          phoneNumber: updated.phoneNumber,
        })
        toasts.add({ severity: 'success', summary: t`Your profile has been updated.`, life: 4000 })
      } catch (error) {
        failed(t`Your profile could not be updated.`, error)
      }
    },
  })
  useUnsavedChanges(useStore(form.store, (state) => state.isDirty))
  const nameError = (value: string) => (value.trim().length > 100 ? t`At most 100 characters.` : undefined)

  return (
    <>
      <PageHeader title={<Trans>My profile</Trans>} />
      <Card className="max-w-2xl">
        <form
          noValidate
          className="grid gap-5 sm:grid-cols-2"
          onSubmit={(event) => {
            event.preventDefault()
            void form.handleSubmit()
          }}
        >
          <form.AppField name="firstName" validators={{ onChange: ({ value }) => nameError(value) }}>
            {(field) => <field.TextField label={t`First name`} autoComplete="given-name" />}
          </form.AppField>
          <form.AppField name="lastName" validators={{ onChange: ({ value }) => nameError(value) }}>
            {(field) => <field.TextField label={t`Last name`} autoComplete="family-name" />}
          </form.AppField>
          <TextField
            label={t`E-mail`}
            name="email"
            type="email"
            value={profile.email}
            onChange={() => undefined}
            isReadOnly
            description={t`Your sign-in address.`}
          />
          <form.AppField
            name="phoneNumber"
            validators={{
              onChange: ({ value }) =>
                v.safeParse(PhoneSchema, value).success
                  ? undefined
                  : t`Use digits, spaces and + ( ) . - only, at most 32 characters.`,
            }}
          >
            {(field) => (
              <field.TextField label={t`Phone number`} type="tel" inputMode="tel" autoComplete="tel" />
            )}
          </form.AppField>
          <div className="sm:col-span-2">
            <form.Subscribe selector={(state) => [state.isSubmitting, state.canSubmit] as const}>
              {([isSubmitting, canSubmit]) => (
                <Button type="submit" isDisabled={isSubmitting || !canSubmit}>
                  {isSubmitting ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
                </Button>
              )}
            </form.Subscribe>
          </div>
        </form>
      </Card>
      <ReminderMailsSetting profile={profile} />
      <CalendarFeedsCard canFollowOrganization={profile.permissions.includes('create__transfer')} />
      <Suspense fallback={null}>
        <PersonalTokensCard />
      </Suspense>
    </>
  )
}

/** The transfer reminders by mail, on or off, saved as soon as it changes. */
function ReminderMailsSetting({ profile }: { profile: Profile }) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const updateProfile = useUpdateProfile()
  const checked = updateProfile.isPending
    ? (updateProfile.variables.reminderMails ?? profile.reminderMails)
    : profile.reminderMails
  return (
    <Card className="mt-6 max-w-2xl">
      <h2 className="mb-3 text-base font-semibold">
        <Trans>Mail</Trans>
      </h2>
      <label className="flex items-start gap-3">
        <input
          type="checkbox"
          name="reminderMails"
          className="mt-1 size-4"
          checked={checked}
          disabled={updateProfile.isPending}
          onChange={async (event) => {
            const reminderMails = event.currentTarget.checked
            try {
              await updateProfile.mutateAsync({ reminderMails })
              toasts.add({
                severity: 'success',
                summary: reminderMails ? t`Reminder mails are on.` : t`Reminder mails are off.`,
                life: 4000,
              })
            } catch (error) {
              failed(t`Your profile could not be updated.`, error)
            }
          }}
        />
        <span>
          <span className="block font-medium">
            <Trans>Remind me by mail of the transfers I hold</Trans>
          </span>
          <span className="block text-sm text-slate-600">
            <Trans>
              The day before a pickup opens, the day before and the day a keychain is due back, and when it is
              late.
            </Trans>
          </span>
        </span>
      </label>
    </Card>
  )
}
