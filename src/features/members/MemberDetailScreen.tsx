import { Trans, useLingui } from '@lingui/react/macro'
import { useStore } from '@tanstack/react-form'
import { useQuery } from '@tanstack/react-query'
import type { Member } from '../../../contract/organizations.ts'
import { ROLES, type Role } from '../../../contract/permissions.ts'
import { memberQuery, useUpdateMember } from '../../api/members.ts'
import { useProfile } from '../../api/profile.ts'
import { useAbility } from '../../lib/ability.tsx'
import { ApiError } from '../../lib/api.ts'
import { emailProblem } from '../../lib/email-field.ts'
import { personName, ROLE_LABELS, STATUS_LABELS } from '../../lib/labels.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { useAppForm } from '../../ui/form.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { MemberHoldingsSection } from './MemberHoldingsSection.tsx'
import { MemberTransfersSection } from './MemberTransfersSection.tsx'

type Status = 'ACTIVE' | 'DISABLED'

function MemberForm({ organizationId, member }: { organizationId: string; member: Member }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const updateMember = useUpdateMember(organizationId)
  const ability = useAbility()
  const canEdit = ability.can('update', 'member')
  const form = useAppForm({
    defaultValues: {
      firstName: member.firstName,
      lastName: member.lastName,
      email: member.email,
      role: member.role as Role,
      status: (member.status === 'DISABLED' ? 'DISABLED' : 'ACTIVE') as Status,
    },
    onSubmit: async ({ value, formApi }) => {
      const statusChanged = (member.status === 'DISABLED') !== (value.status === 'DISABLED')
      try {
        await updateMember.mutateAsync({
          id: member.id,
          update: {
            // Only what changed: names and e-mail belong to the person once they have signed in.
            ...(value.firstName !== member.firstName ? { firstName: value.firstName } : {}),
            ...(value.lastName !== member.lastName ? { lastName: value.lastName } : {}),
            ...(member.status === 'INVITED' && value.email !== member.email ? { email: value.email } : {}),
            ...(value.role !== member.role ? { role: value.role } : {}),
            ...(statusChanged ? { status: value.status } : {}),
          },
        })
        formApi.reset({ ...value })
        toasts.add({ severity: 'success', summary: t`The user has been updated.`, life: 4000 })
      } catch (error) {
        toasts.add({
          severity: 'error',
          summary: t`The user could not be updated.`,
          detail:
            error instanceof ApiError && error.status === 409
              ? t`This change is not allowed: an organization keeps one active administrator, and only invited members' names and e-mail can be edited.`
              : undefined,
          life: 7000,
        })
      }
    },
  })
  useUnsavedChanges(useStore(form.store, (state) => state.isDirty))
  const revoke = async () => {
    try {
      await updateMember.mutateAsync({ id: member.id, update: { status: 'DISABLED' } })
      toasts.add({ severity: 'success', summary: t`The invitation has been revoked.`, life: 4000 })
    } catch (error) {
      failed(t`The user could not be updated.`, error)
    }
  }
  const statusOptions = (['ACTIVE', 'DISABLED'] as const).map((status) => ({
    value: status,
    label: i18n._(STATUS_LABELS[status]),
  }))
  return (
    <form
      noValidate
      className="grid gap-5 sm:grid-cols-2"
      onSubmit={(event) => {
        event.preventDefault()
        void form.handleSubmit()
      }}
    >
      {(['firstName', 'lastName'] as const).map((name) => (
        <form.AppField
          key={name}
          name={name}
          validators={{
            onChange: ({ value }) => (value.length > 100 ? t`At most 100 characters.` : undefined),
          }}
        >
          {(field) => (
            <field.TextField
              label={name === 'firstName' ? t`First name` : t`Last name`}
              isReadOnly={!canEdit || member.status !== 'INVITED'}
            />
          )}
        </form.AppField>
      ))}
      <form.AppField
        name="email"
        validators={{
          onSubmit: ({ value }) => emailProblem(value, i18n),
        }}
      >
        {(field) => (
          <field.TextField
            label={t`E-mail`}
            type="email"
            isReadOnly={!canEdit || member.status !== 'INVITED'}
            description={
              member.status === 'INVITED'
                ? undefined
                : t`The e-mail is the member's sign-in address; only they can change it.`
            }
          />
        )}
      </form.AppField>
      <form.Field name="role">
        {(field) => (
          <SelectField
            label={t`Role`}
            name={field.name}
            value={field.state.value}
            isDisabled={!canEdit}
            options={ROLES.map((role) => ({ value: role, label: i18n._(ROLE_LABELS[role]) }))}
            onChange={(value) => field.handleChange(value as Role)}
          />
        )}
      </form.Field>
      {member.status === 'INVITED' ? (
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <p className="text-sm text-slate-700">
            <Trans>Invited: becomes active at the first sign-in.</Trans>
          </p>
          {canEdit ? (
            <Button variant="secondary" onPress={() => void revoke()}>
              <Trans>Revoke the invitation</Trans>
            </Button>
          ) : null}
        </div>
      ) : (
        <form.Field name="status">
          {(field) => (
            <SelectField
              label={t`Status`}
              name={field.name}
              value={field.state.value}
              isDisabled={!canEdit}
              options={statusOptions}
              onChange={(value) => field.handleChange(value as Status)}
            />
          )}
        </form.Field>
      )}
      {canEdit ? (
        <div className="sm:col-span-2">
          <form.AppForm>
            <form.SubmitButton pending={<Trans>Saving…</Trans>}>
              <Trans>Save</Trans>
            </form.SubmitButton>
          </form.AppForm>
        </div>
      ) : null}
    </form>
  )
}

/** The member's details and form: ADMIN and MANAGER read them (`read__member`), ADMIN edits them. */
function MemberDetails({ organizationId, userId }: { organizationId: string; userId: string }) {
  const { data, isPending, isError, error, refetch } = useQuery(memberQuery(organizationId, userId))
  if (isPending) return <LoadingState label={<Trans>Loading the user…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The user's details could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  return (
    <>
      <PageHeader title={personName(data)} />
      <Card className="max-w-2xl">
        <MemberForm key={data.id} organizationId={organizationId} member={data} />
      </Card>
    </>
  )
}

/**
 * `/app/users/{id}`: a member's page. Their details (for those who read members), what they hold now and the
 * transfers addressed to them; every member sees their own page too.
 */
export function MemberDetailScreen({ organizationId, userId }: { organizationId: string; userId: string }) {
  const canReadMembers = useAbility().can('read', 'member')
  const isSelf = useProfile()?.id === userId
  if (!canReadMembers && !isSelf)
    return (
      <EmptyState title={<Trans>This page is for managers and administrators.</Trans>}>
        <p className="text-slate-700">
          <Trans>You can see your own page: what you hold and your transfers.</Trans>
        </p>
      </EmptyState>
    )
  return (
    <div className="flex flex-col gap-6">
      {canReadMembers ? (
        <MemberDetails organizationId={organizationId} userId={userId} />
      ) : (
        <PageHeader title={<Trans>My keychains and transfers</Trans>} />
      )}
      <div className="grid gap-6 xl:grid-cols-2">
        <MemberHoldingsSection organizationId={organizationId} userId={userId} />
        <MemberTransfersSection organizationId={organizationId} userId={userId} />
      </div>
    </div>
  )
}
