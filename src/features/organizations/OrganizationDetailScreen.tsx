import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { hasPermission, permissionsFor } from '../../../contract/permissions.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { MemberTable } from '../../ui/MemberTable.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { Tabs } from '../../ui/Tabs.tsx'
import { TagTable } from '../../ui/TagTable.tsx'
import { organizationMembersQuery, organizationQuery, organizationTagsQuery } from './api.ts'
import { countryName } from './countries.ts'
import { InviteMemberForm } from './InviteMemberForm.tsx'

export type OrganizationTab = 'users' | 'tags'

function MembersTab({ organizationId, canInvite }: { organizationId: string; canInvite: boolean }) {
  const href = useHref()
  const { data, isPending, isError, refetch } = useQuery(organizationMembersQuery(organizationId))
  return (
    <div className="flex flex-col gap-5">
      {canInvite ? (
        <Card>
          <h2 className="mb-4 font-semibold text-slate-900">
            <Trans>Invite a member</Trans>
          </h2>
          <InviteMemberForm organizationId={organizationId} />
        </Card>
      ) : null}
      {isPending ? (
        <LoadingState label={<Trans>Loading members…</Trans>} />
      ) : isError ? (
        <ErrorState
          message={<Trans>The members could not be loaded.</Trans>}
          onRetry={() => void refetch()}
        />
      ) : (
        <MemberTable members={data} hrefOf={(member) => href(`/app/users/${member.id}`)} />
      )}
    </div>
  )
}

function TagsTab({ organizationId }: { organizationId: string }) {
  const href = useHref()
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  const cursor = cursors.at(-1) ?? null
  const { data, isPending, isError, refetch } = useQuery(organizationTagsQuery(organizationId, cursor))
  if (isPending) return <LoadingState label={<Trans>Loading tags…</Trans>} />
  if (isError)
    return (
      <ErrorState message={<Trans>The tags could not be loaded.</Trans>} onRetry={() => void refetch()} />
    )
  if (data.data.length === 0)
    return <EmptyState title={<Trans>No tags yet: they are created when a tag order is paid.</Trans>} />
  return (
    <div className="flex flex-col gap-4">
      <TagTable
        tags={data.data}
        tagHref={(tag) => href(`/tags/${tag.publicId}`)}
        keychainHref={(id) => href(`/app/keychains/${id}`)}
      />
      <div className="flex gap-3">
        {cursors.length > 1 ? (
          <Button variant="secondary" onPress={() => setCursors((all) => all.slice(0, -1))}>
            <Trans>Previous page</Trans>
          </Button>
        ) : null}
        {data.nextCursor ? (
          <Button variant="secondary" onPress={() => setCursors((all) => [...all, data.nextCursor])}>
            <Trans>Next page</Trans>
          </Button>
        ) : null}
      </div>
    </div>
  )
}

export function OrganizationDetailScreen({
  organizationId,
  tab,
  onTabChange,
}: {
  organizationId: string
  tab: OrganizationTab
  onTabChange: (tab: OrganizationTab) => void
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const { data: organization, isPending, isError, refetch } = useQuery(organizationQuery(organizationId))
  if (isPending) return <LoadingState label={<Trans>Loading the organization…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The organization could not be loaded.</Trans>}
        onRetry={() => void refetch()}
      />
    )
  const { address } = organization
  // Permissions here are those of the caller's role in this organization, which need not be the selected one.
  const canInvite = hasPermission(permissionsFor(organization.role), 'create', 'member')
  return (
    <>
      <PageHeader title={organization.name} />
      <address className="mb-6 text-slate-700 not-italic">
        {address.line1}
        {address.line2 ? `, ${address.line2}` : ''}, {address.postalCode} {address.city},{' '}
        {countryName(address.country, locale)}
      </address>
      <Tabs
        label={t`Organization sections`}
        selected={tab}
        onSelect={(id) => onTabChange(id as OrganizationTab)}
        items={[
          {
            id: 'users',
            label: <Trans>Users</Trans>,
            content: <MembersTab organizationId={organizationId} canInvite={canInvite} />,
          },
          { id: 'tags', label: <Trans>Tags</Trans>, content: <TagsTab organizationId={organizationId} /> },
        ]}
      />
    </>
  )
}
