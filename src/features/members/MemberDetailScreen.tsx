import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
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
import { SelectField } from '../../ui/SelectField.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'
import { LeftWithKeys } from './LeftWithKeys.tsx'
import { MemberHoldingsSection } from './MemberHoldingsSection.tsx'
import { MemberTransfersSection } from './MemberTransfersSection.tsx'

type Status = 'ACTIVE' | 'DISABLED'

type MemberValues = { firstName: string; lastName: string; email: string; role: Role; status: Status }

const valuesOf = (member: Member): MemberValues => ({
  firstName: member.firstName,
  lastName: member.lastName,
  email: member.email,
  role: member.role as Role,
  status: member.status === 'DISABLED' ? 'DISABLED' : 'ACTIVE',
})

/** Plain React state (no form library): the form is on the member page's first load. */
function MemberForm({ organizationId, member }: { organizationId: string; member: Member }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const updateMember = useUpdateMember(organizationId)
  const ability = useAbility()
  const canEdit = ability.can('update', 'member')
  const [saved, setSaved] = useState(() => valuesOf(member))
  const [value, setValue] = useState(saved)
  const [emailError, setEmailError] = useState<string | undefined>()
  const dirty = (Object.keys(value) as (keyof MemberValues)[]).some((name) => value[name] !== saved[name])
  useUnsavedChanges(dirty)
  const change = <Name extends keyof MemberValues>(name: Name, next: MemberValues[Name]) => {
    setValue((current) => ({ ...current, [name]: next }))
    if (name === 'email') setEmailError(undefined)
  }
  const nameError = (name: 'firstName' | 'lastName') =>
    value[name].length > 100 ? t`At most 100 characters.` : undefined
  const { pending, submit } = useSubmit(async () => {
    if (nameError('firstName') || nameError('lastName')) return
    const problem = emailProblem(value.email, i18n)
    setEmailError(problem)
    if (problem) return
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
      setSaved(value)
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
  })
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
    <form noValidate className="grid gap-5 sm:grid-cols-2" onSubmit={(event) => void submit(event)}>
      {(['firstName', 'lastName'] as const).map((name) => (
        <TextField
          key={name}
          label={name === 'firstName' ? t`First name` : t`Last name`}
          name={name}
          value={value[name]}
          onChange={(next) => change(name, next)}
          error={nameError(name)}
          isReadOnly={!canEdit || member.status !== 'INVITED'}
        />
      ))}
      <TextField
        label={t`E-mail`}
        name="email"
        type="email"
        value={value.email}
        onChange={(next) => change('email', next)}
        error={emailError}
        isReadOnly={!canEdit || member.status !== 'INVITED'}
        description={
          member.status === 'INVITED'
            ? undefined
            : t`The e-mail is the member's sign-in address; only they can change it.`
        }
      />
      <SelectField
        label={t`Role`}
        name="role"
        value={value.role}
        isDisabled={!canEdit}
        options={ROLES.map((role) => ({ value: role, label: i18n._(ROLE_LABELS[role]) }))}
        onChange={(next) => change('role', next as Role)}
      />
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
        <SelectField
          label={t`Status`}
          name="status"
          value={value.status}
          isDisabled={!canEdit}
          options={statusOptions}
          onChange={(next) => change('status', next as Status)}
        />
      )}
      {canEdit ? (
        <div className="sm:col-span-2">
          <Button type="submit" isDisabled={pending}>
            {pending ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
          </Button>
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
        <>
          <MemberDetails organizationId={organizationId} userId={userId} />
          <LeftWithKeys organizationId={organizationId} userId={userId} />
        </>
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
