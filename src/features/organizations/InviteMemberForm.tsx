import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ROLES, type Role } from '../../../contract/permissions.ts'
import { useInviteMember } from '../../api/members.ts'
import { ApiError } from '../../lib/api.ts'
import { emailProblem } from '../../lib/email-field.ts'
import { ROLE_LABELS } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'

/**
 * Invites someone by e-mail with a role; they get a mail in their language and join at their first sign-in.
 * Plain React state (no form library): the form is on the organization page's first load.
 */
export function InviteMemberForm({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const inviteMember = useInviteMember(organizationId)
  const [email, setEmail] = useState('')
  const [emailError, setEmailError] = useState<string | undefined>()
  const [role, setRole] = useState<Role>('MEMBER')
  const { pending, submit } = useSubmit(async () => {
    const problem = emailProblem(email, i18n)
    setEmailError(problem)
    if (problem) return
    try {
      const value = { email, role }
      await inviteMember.mutateAsync({ ...value, locale })
      toasts.add({ severity: 'success', summary: t`Invitation sent to ${value.email}.`, life: 5000 })
      setEmail('')
      setRole('MEMBER')
    } catch (error) {
      const already = error instanceof ApiError && error.status === 409
      toasts.add({
        severity: 'error',
        summary: already ? t`This person is already a member.` : t`The invitation could not be sent.`,
        life: 6000,
      })
    }
  })
  return (
    <form
      noValidate
      aria-label={t`Invite a member`}
      className="grid items-start gap-4 sm:grid-cols-[1fr_12rem_auto]"
      onSubmit={(event) => void submit(event)}
    >
      <TextField
        label={t`E-mail of the person to invite`}
        name="email"
        type="email"
        inputMode="email"
        value={email}
        onChange={(value) => {
          setEmail(value)
          setEmailError(undefined)
        }}
        error={emailError}
      />
      <SelectField
        label={t`Role`}
        name="role"
        value={role}
        options={ROLES.map((each) => ({ value: each, label: i18n._(ROLE_LABELS[each]) }))}
        onChange={(value) => setRole(value as Role)}
      />
      <Button type="submit" className="sm:mt-7" isDisabled={pending}>
        {pending ? <Trans>Sending…</Trans> : <Trans>Invite</Trans>}
      </Button>
    </form>
  )
}
