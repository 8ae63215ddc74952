import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useState } from 'react'
import * as v from 'valibot'
import { PhoneSchema, type Profile } from '../../../contract/auth.ts'
import { useUpdateProfile } from '../../api/profile.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'
import { CalendarFeedsCard } from './CalendarFeedsCard.tsx'

const PersonalTokensCard = lazy(() => import('./PersonalTokensCard.tsx'))
// The devices' list and the device key it marks load after the profile form.
const DevicesCard = lazy(() => import('./DevicesCard.tsx'))
const NotificationsCard = lazy(() => import('./NotificationsCard.tsx'))

type ProfileValues = { firstName: string; lastName: string; phoneNumber: string }

const valuesOf = (profile: Profile): ProfileValues => ({
  firstName: profile.firstName,
  lastName: profile.lastName,
  phoneNumber: profile.phoneNumber,
})

/** The profile form is plain React state (no form library on the page's first load). */
export function ProfileScreen({ profile }: { profile: Profile }) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const updateProfile = useUpdateProfile()
  const [saved, setSaved] = useState(() => valuesOf(profile))
  const [value, setValue] = useState(saved)
  const dirty = (Object.keys(value) as (keyof ProfileValues)[]).some((name) => value[name] !== saved[name])
  useUnsavedChanges(dirty)
  const nameError = (text: string) => (text.trim().length > 100 ? t`At most 100 characters.` : undefined)
  const errors = {
    firstName: nameError(value.firstName),
    lastName: nameError(value.lastName),
    phoneNumber: v.safeParse(PhoneSchema, value.phoneNumber).success
      ? undefined
      : t`Use digits, spaces and + ( ) . - only, at most 32 characters.`,
  }
  const valid = !errors.firstName && !errors.lastName && !errors.phoneNumber
  const change = (name: keyof ProfileValues) => (next: string) =>
    setValue((current) => ({ ...current, [name]: next }))
  const { pending, submit } = useSubmit(async () => {
    if (!valid) return
    try {
      const updated = valuesOf(await updateProfile.mutateAsync(value))
      setSaved(updated)
      setValue(updated)
      toasts.add({ severity: 'success', summary: t`Your profile has been updated.`, life: 4000 })
    } catch (error) {
      failed(t`Your profile could not be updated.`, error)
    }
  })

  return (
    <>
      <PageHeader title={<Trans>My profile</Trans>} />
      <Card className="max-w-2xl">
        <form noValidate className="grid gap-5 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
          <TextField
            label={t`First name`}
            name="firstName"
            autoComplete="given-name"
            value={value.firstName}
            onChange={change('firstName')}
            error={errors.firstName}
          />
          <TextField
            label={t`Last name`}
            name="lastName"
            autoComplete="family-name"
            value={value.lastName}
            onChange={change('lastName')}
            error={errors.lastName}
          />
          <TextField
            label={t`E-mail`}
            name="email"
            type="email"
            value={profile.email}
            onChange={() => undefined}
            isReadOnly
            description={t`Your sign-in address.`}
          />
          <TextField
            label={t`Phone number`}
            name="phoneNumber"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            value={value.phoneNumber}
            onChange={change('phoneNumber')}
            error={errors.phoneNumber}
          />
          <div className="sm:col-span-2">
            <Button type="submit" isDisabled={pending || !valid}>
              {pending ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
            </Button>
          </div>
        </form>
      </Card>
      <ReminderMailsSetting profile={profile} />
      <Suspense fallback={null}>
        <NotificationsCard />
      </Suspense>
      <CalendarFeedsCard canFollowOrganization={profile.permissions.includes('create__transfer')} />
      <Suspense fallback={null}>
        <DevicesCard userId={profile.id} />
      </Suspense>
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
