import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense } from 'react'
import { hasPermission, permissionsFor } from '../../../contract/permissions.ts'
import { membersQuery } from '../../api/members.ts'
import { organizationOrdersQuery } from '../../api/organization-orders.ts'
import { organizationQuery, organizationTagsQuery } from '../../api/organizations.ts'
import { formatDate, formatMoney } from '../../lib/format.ts'
import { ORDER_STATUS_LABELS } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AddressText } from '../../ui/AddressText.tsx'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useCursorPages } from '../../ui/CursorPager.tsx'
import { MemberTable } from '../../ui/MemberTable.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { Tabs } from '../../ui/Tabs.tsx'
import { TagTable } from '../../ui/TagTable.tsx'
import { InviteMemberForm } from './InviteMemberForm.tsx'
import { OrganizationSettingsCard } from './OrganizationSettingsCard.tsx'

const OrganizationTokensCard = lazy(() => import('./OrganizationTokensCard.tsx'))
const IdentityProviderCard = lazy(() => import('./IdentityProviderCard.tsx'))

export type OrganizationTab = 'users' | 'orders' | 'tags'

function MembersTab({
  organizationId,
  canInvite,
  linked,
}: {
  organizationId: string
  canInvite: boolean
  linked: boolean
}) {
  const href = useHref()
  const { data, isPending, isError, refetch } = useQuery(membersQuery(organizationId))
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
        <MemberTable
          members={data}
          hrefOf={linked ? (member) => href(`/app/users/${member.id}`) : undefined}
        />
      )}
    </div>
  )
}

/** An empty tab's next step: order tags (when the caller may, in the selected organization). */
function OrderTagsLink({ href }: { href: string | null }) {
  if (!href) return null
  return (
    <AppLink href={href} className={buttonClass('primary')}>
      <Trans>Order tags</Trans>
    </AppLink>
  )
}

function OrdersTab({ organizationId, orderHref }: { organizationId: string; orderHref: string | null }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const href = useHref()
  const { data, isPending, isError, refetch } = useQuery(organizationOrdersQuery(organizationId))
  if (isPending) return <LoadingState label={<Trans>Loading orders…</Trans>} />
  if (isError)
    return (
      <ErrorState message={<Trans>The orders could not be loaded.</Trans>} onRetry={() => void refetch()} />
    )
  if (data.data.length === 0)
    return (
      <EmptyState title={<Trans>No orders yet.</Trans>}>
        <OrderTagsLink href={orderHref} />
      </EmptyState>
    )
  return (
    <ul className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      {data.data.map((order) => (
        <li key={order.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 text-sm">
          <AppLink href={href(`/app/orders/${order.id}`)}>{order.reference}</AppLink>
          <span className="text-slate-700">{i18n._(ORDER_STATUS_LABELS[order.status])}</span>
          <span className="text-slate-700">{formatDate(order.createdAt, locale)}</span>
          <span className="ml-auto font-semibold tabular-nums">
            {formatMoney(order.totals.totalInCents, locale)}
          </span>
        </li>
      ))}
    </ul>
  )
}

function TagsTab({
  organizationId,
  linked,
  orderHref,
}: {
  organizationId: string
  linked: boolean
  orderHref: string | null
}) {
  const href = useHref()
  const { cursor, pager } = useCursorPages()
  const { data, isPending, isError, refetch } = useQuery(organizationTagsQuery(organizationId, cursor))
  if (isPending) return <LoadingState label={<Trans>Loading tags…</Trans>} />
  if (isError)
    return (
      <ErrorState message={<Trans>The tags could not be loaded.</Trans>} onRetry={() => void refetch()} />
    )
  if (data.data.length === 0)
    return (
      <EmptyState title={<Trans>No tags yet: they are created when a tag order is paid.</Trans>}>
        <OrderTagsLink href={orderHref} />
      </EmptyState>
    )
  return (
    <div className="flex flex-col gap-4">
      <TagTable
        tags={data.data}
        tagHref={(tag) => href(`/tags/${tag.publicId}`)}
        keychainHref={linked ? (id) => href(`/app/keychains/${id}`) : undefined}
      />
      {pager(data.nextCursor)}
    </div>
  )
}

export function OrganizationDetailScreen({
  organizationId,
  tab,
  onTabChange,
  selectedOrganizationId,
  subscription,
}: {
  organizationId: string
  tab: OrganizationTab
  onTabChange: (tab: OrganizationTab) => void
  /** Member and keychain pages show the selected organization: link to them only when this one is selected. */
  selectedOrganizationId: string | null
  /** The plan section, composed by the route. */
  subscription?: ReactNode
}) {
  const { t } = useLingui()
  const href = useHref()
  const {
    data: organization,
    isPending,
    isError,
    error,
    refetch,
  } = useQuery(organizationQuery(organizationId))
  if (isPending) return <LoadingState label={<Trans>Loading the organization…</Trans>} />
  if (isError)
    return (
      <ErrorState
        message={<Trans>The organization could not be loaded.</Trans>}
        onRetry={() => void refetch()}
        error={error}
      />
    )
  const { address } = organization
  // Permissions here are those of the caller's role in this organization, which need not be the selected one.
  const granted = permissionsFor(organization.role)
  const canInvite = hasPermission(granted, 'create', 'member')
  const linked = organizationId === selectedOrganizationId
  // Tag orders go through the selected organization's cart.
  const orderHref =
    linked && hasPermission(granted, 'create', 'order')
      ? href(`/app/organizations/${organizationId}/new-order`)
      : null
  const tabs = [
    hasPermission(granted, 'read', 'member')
      ? {
          id: 'users',
          label: <Trans>Users</Trans>,
          content: <MembersTab organizationId={organizationId} canInvite={canInvite} linked={linked} />,
        }
      : null,
    hasPermission(granted, 'read', 'order')
      ? {
          id: 'orders',
          label: <Trans>Orders</Trans>,
          content: <OrdersTab organizationId={organizationId} orderHref={orderHref} />,
        }
      : null,
    hasPermission(granted, 'read', 'tag')
      ? {
          id: 'tags',
          label: <Trans>Tags</Trans>,
          content: <TagsTab organizationId={organizationId} linked={linked} orderHref={orderHref} />,
        }
      : null,
  ].filter((item) => item !== null)
  const current = tabs.some((item) => item.id === tab) ? tab : (tabs[0]?.id ?? tab)
  return (
    <>
      <PageHeader title={organization.name}>
        {orderHref ? (
          <div className="flex flex-wrap gap-2">
            <AppLink href={orderHref} className={buttonClass('primary')}>
              <Trans>Order tags</Trans>
            </AppLink>
            <AppLink
              href={href(`/app/organizations/${organizationId}/_new-order`)}
              className={buttonClass('secondary')}
            >
              <Trans>Order step by step</Trans>
            </AppLink>
          </div>
        ) : null}
      </PageHeader>
      <AddressText address={address} className="mb-6 text-slate-700" />
      {subscription && hasPermission(granted, 'read', 'subscription') ? (
        <div className="mb-6">{subscription}</div>
      ) : null}
      {tabs.length > 0 ? (
        <Tabs
          label={t`Organization sections`}
          selected={current}
          onSelect={(id) => onTabChange(id as OrganizationTab)}
          items={tabs}
        />
      ) : null}
      {hasPermission(granted, 'update', 'organization') ? (
        <>
          <OrganizationSettingsCard
            organizationId={organizationId}
            stocktakeRole={organization.stocktakeRole}
            handoverReceivers={organization.handoverReceivers}
          />
          <Suspense fallback={null}>
            <IdentityProviderCard organizationId={organizationId} />
            <OrganizationTokensCard organizationId={organizationId} />
          </Suspense>
        </>
      ) : null}
    </>
  )
}
