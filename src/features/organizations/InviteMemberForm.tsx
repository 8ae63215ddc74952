import { Trans, useLingui } from '@lingui/react/macro'
import { ROLES, type Role } from '../../../contract/permissions.ts'
import { useInviteMember } from '../../api/members.ts'
import { ApiError } from '../../lib/api.ts'
import { emailProblem } from '../../lib/email-field.ts'
import { ROLE_LABELS } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { useAppForm } from '../../ui/form.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { toasts } from '../../ui/toast/store.ts'

/** Invites someone by e-mail with a role; they get a mail in their language and join at their first sign-in. */
export function InviteMemberForm({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const inviteMember = useInviteMember(organizationId)
  const form = useAppForm({
    defaultValues: { email: '', role: 'MEMBER' as Role },
    onSubmit: async ({ value, formApi }) => {
      try {
        await inviteMember.mutateAsync({ email: value.email, role: value.role, locale })
        toasts.add({ severity: 'success', summary: t`Invitation sent to ${value.email}.`, life: 5000 })
        formApi.reset()
      } catch (error) {
        const already = error instanceof ApiError && error.status === 409
        toasts.add({
          severity: 'error',
          summary: already ? t`This person is already a member.` : t`The invitation could not be sent.`,
          life: 6000,
        })
      }
    },
  })
  return (
    <form
      noValidate
      aria-label={t`Invite a member`}
      className="grid items-start gap-4 sm:grid-cols-[1fr_12rem_auto]"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      <form.AppField
        name="email"
        validators={{
          onSubmit: ({ value }) => emailProblem(value, i18n),
        }}
      >
        {(field) => (
          <field.TextField label={t`E-mail of the person to invite`} type="email" inputMode="email" />
        )}
      </form.AppField>
      <form.Field name="role">
        {(field) => (
          <SelectField
            label={t`Role`}
            name={field.name}
            value={field.state.value}
            options={ROLES.map((role) => ({ value: role, label: i18n._(ROLE_LABELS[role]) }))}
            onChange={(value) => field.handleChange(value as Role)}
          />
        )}
      </form.Field>
      <form.AppForm>
        <form.SubmitButton className="sm:mt-7" pending={<Trans>Sending…</Trans>}>
          <Trans>Invite</Trans>
        </form.SubmitButton>
      </form.AppForm>
    </form>
  )
}
