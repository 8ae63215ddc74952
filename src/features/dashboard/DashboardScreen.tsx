import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Building2, CreditCard, Inbox, KeyRound, Plus, ScanLine } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useEffect, useId } from 'react'
import type { Profile } from '../../../contract/auth.ts'
import { dashboardQuery } from '../../api/dashboard.ts'
import { useAbility } from '../../lib/ability.tsx'
import { formatNumber } from '../../lib/format.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ErrorState, LoadingState } from '../../ui/States.tsx'
import { ALLOWANCE_CARD_CLASS, CHART_CARD_CLASS } from './card-heights.ts'

// Beside and below the counts, in their own chunks (the first load stays the counts'): the allowance, checklist
// and own keychains, asked for with the counts; the charts, once the counts are shown.
const loadDetails = () => import('./DashboardDetails.tsx')
const DashboardDetails = lazy(loadDetails)
const DueBack = lazy(() => loadDetails().then((module) => ({ default: module.DueBack })))
const DashboardCharts = lazy(() => import('./DashboardCharts.tsx'))

function Shortcut({
  href,
  icon: Icon,
  children,
}: {
  href: string
  icon: typeof KeyRound
  children: ReactNode
}) {
  return (
    <AppLink
      href={href}
      className="flex items-center gap-3 rounded-xl border border-slate-200 bg-white p-5 font-semibold text-slate-900 shadow-sm hover:border-brand-600"
    >
      <Icon aria-hidden className="size-6 text-brand-700" />
      {children}
    </AppLink>
  )
}

function Stat({ href, count, children }: { href: string; count: number; children: ReactNode }) {
  const locale = useLocale()
  return (
    <AppLink
      href={href}
      className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600"
    >
      <span className="text-3xl font-bold text-slate-900 tabular-nums">{formatNumber(count, locale)}</span>
      <span className="text-sm font-medium text-slate-700">{children}</span>
    </AppLink>
  )
}

/** A figure's place while it loads: the size of a Stat, so nothing moves when the figures arrive. */
function StatPlaceholder() {
  return (
    <div
      aria-hidden
      className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <span className="h-9 w-12 animate-pulse rounded bg-slate-200" />
      <span className="h-5 w-24 animate-pulse rounded bg-slate-100" />
    </div>
  )
}

/** The groups of figures a role sees, as placeholders, with the loading status for screen readers. */
function CountsPlaceholder({ groups }: { groups: Array<{ title: ReactNode; stats: number }> }) {
  return (
    <div className="flex flex-col gap-6">
      <p role="status" className="sr-only">
        <Trans>Loading the figures…</Trans>
      </p>
      {groups.map((group, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of placeholders
        <StatGroup key={index} title={group.title}>
          {Array.from({ length: group.stats }, (_, stat) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of placeholders
            <StatPlaceholder key={stat} />
          ))}
        </StatGroup>
      ))}
    </div>
  )
}

function StatGroup({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId()
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="font-semibold text-slate-900">
        {title}
      </h2>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">{children}</div>
    </section>
  )
}

/** The selected organization's counts, each leading to the list it counts, and my open requests. */
function Counts({ organizationId }: { organizationId: string | null }) {
  const href = useHref()
  const ability = useAbility()
  const { data, isPending, refetch } = useQuery(dashboardQuery(organizationId))
  if (isPending) {
    if (organizationId === null) return <LoadingState label={<Trans>Loading the figures…</Trans>} />
    // The organization's figures come to every role but CONTACT, who sees their requests only.
    return (
      <CountsPlaceholder
        groups={
          ability.can('read', 'keychain')
            ? [
                { title: <Trans>Overview</Trans>, stats: 3 },
                { title: <Trans>Active transfers</Trans>, stats: 3 },
                { title: <Trans>Expired transfers</Trans>, stats: 2 },
              ]
            : [{ title: <Trans>Transferred to me</Trans>, stats: 1 }]
        }
      />
    )
  }
  if (data === undefined)
    return (
      <ErrorState message={<Trans>The figures could not be loaded.</Trans>} onRetry={() => void refetch()} />
    )
  const counts = data.organization
  const list = (query: '' | `?${string}`) => href(`/app/transfers${query}`)
  return (
    <div className="flex flex-col gap-6">
      {counts ? (
        <>
          <StatGroup title={<Trans>Overview</Trans>}>
            <Stat href={href('/app/keychains')} count={counts.keychains}>
              <Trans>Keychains</Trans>
            </Stat>
            <Stat href={list('')} count={counts.transfers}>
              <Trans>Transfers</Trans>
            </Stat>
            <Stat
              href={href(ability.can('read', 'member') ? '/app/users' : '/app/organizations')}
              count={counts.users}
            >
              <Trans>Users</Trans>
            </Stat>
          </StatGroup>
          <StatGroup title={<Trans>Active transfers</Trans>}>
            <Stat href={list('?status=SCHEDULED&expired=false')} count={counts.active.scheduled}>
              <Trans>Scheduled</Trans>
            </Stat>
            <Stat href={list('?status=TRANSFERRED')} count={counts.active.transferred}>
              <Trans>Transferred</Trans>
            </Stat>
            <Stat href={list('?status=RETURNING&expired=false')} count={counts.active.returning}>
              <Trans>Returning</Trans>
            </Stat>
          </StatGroup>
          {/* Its place is empty until the list comes: the chunk is asked for with the figures, so it is there. */}
          <Suspense fallback={null}>
            <DueBack figures={counts} />
          </Suspense>
          <StatGroup title={<Trans>Expired transfers</Trans>}>
            <Stat href={list('?status=SCHEDULED&expired=true')} count={counts.expired.scheduled}>
              <Trans>Scheduled</Trans>
            </Stat>
            <Stat href={list('?status=RETURNING&expired=true')} count={counts.expired.returning}>
              <Trans>Returning</Trans>
            </Stat>
          </StatGroup>
        </>
      ) : null}
      {data.requests.open > 0 || (!counts && organizationId !== null) ? (
        <StatGroup title={<Trans>Transferred to me</Trans>}>
          <Stat href={href('/app/transfers/requests')} count={data.requests.open}>
            <Trans>Open requests</Trans>
          </Stat>
        </StatGroup>
      ) : null}
    </div>
  )
}

/** The allowance, checklist and own keychains once the counts are in; the allowance's place kept till then. */
function Details({ organizationId }: { organizationId: string }) {
  const ability = useAbility()
  const { data } = useQuery(dashboardQuery(organizationId))
  const placeholder = ability.can('create', 'transfer') ? (
    <div aria-hidden className={ALLOWANCE_CARD_CLASS}>
      <span className="h-5 w-40 animate-pulse rounded bg-slate-200" />
    </div>
  ) : null
  if (!data?.organization) return placeholder
  return (
    <Suspense fallback={placeholder}>
      <DashboardDetails figures={data.organization} />
    </Suspense>
  )
}

/** The two charts' places, filled once the counts are shown (their chunk and figures come after). */
function Charts({ organizationId }: { organizationId: string }) {
  const { data } = useQuery(dashboardQuery(organizationId))
  const placeholders = (
    <>
      <div aria-hidden className={CHART_CARD_CLASS} />
      <div aria-hidden className={CHART_CARD_CLASS} />
    </>
  )
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {data?.organization ? (
        <Suspense fallback={placeholders}>
          <DashboardCharts organizationId={organizationId} />
        </Suspense>
      ) : (
        placeholders
      )}
    </div>
  )
}

/** The dashboard; without a selected organization it prompts for a first one. */
export function DashboardScreen({ profile }: { profile: Profile }) {
  const { t } = useLingui()
  const href = useHref()
  const ability = useAbility()
  const name = profile.firstName || profile.email
  const organizationId = profile.selectedOrganizationId
  const seesOrganization = organizationId !== null && ability.can('read', 'keychain')
  useEffect(() => {
    if (seesOrganization) void loadDetails()
  }, [seesOrganization])
  return (
    <>
      <PageHeader title={<Trans>Hello {name}</Trans>} documentTitle={t`Dashboard`} />
      {organizationId !== null && ability.can('create', 'scan') ? (
        // On a phone, the field's first move comes first.
        <AppLink href={href('/app/scan')} className={buttonClass('primary', 'mb-6 w-full sm:hidden')}>
          <ScanLine aria-hidden className="size-5" />
          <Trans>Scan a tag</Trans>
        </AppLink>
      ) : null}
      {profile.selectedOrganizationId === null ? (
        <Card className="mb-8 flex max-w-2xl flex-col items-start gap-4">
          <span className="inline-flex size-12 items-center justify-center rounded-full bg-brand-100 text-brand-800">
            <Building2 aria-hidden className="size-6" />
          </span>
          <h2 className="text-lg font-semibold text-slate-900">
            <Trans>Create your first organization</Trans>
          </h2>
          <p className="text-slate-700">
            <Trans>
              Keychains, keys, tags and transfers belong to an organization. Create yours to get started, or
              ask an administrator to invite you to theirs.
            </Trans>
          </p>
          <AppLink href={href('/app/organizations/new')} className={buttonClass('primary')}>
            <Plus aria-hidden className="size-4" />
            <Trans>Create an organization</Trans>
          </AppLink>
        </Card>
      ) : null}
      {seesOrganization ? (
        <div className="mb-8 grid gap-6 lg:grid-cols-3 lg:gap-8">
          <div className="lg:col-span-2">
            <Counts organizationId={organizationId} />
          </div>
          <aside
            aria-label={t`For you`}
            className="flex flex-col gap-6 lg:col-start-3 lg:row-span-2 lg:row-start-1"
          >
            <Details organizationId={organizationId} />
          </aside>
          <div className="lg:col-span-2">
            <Charts organizationId={organizationId} />
          </div>
        </div>
      ) : (
        <div className="mb-8">
          <Counts organizationId={organizationId} />
        </div>
      )}
      {profile.selectedOrganizationId === null ? null : (
        <nav aria-label={t`Shortcuts`} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {ability.can('read', 'keychain') ? (
            <Shortcut href={href('/app/keychains')} icon={KeyRound}>
              <Trans>Keychains</Trans>
            </Shortcut>
          ) : null}
          {ability.can('create', 'scan') ? (
            <Shortcut href={href('/app/scan')} icon={ScanLine}>
              <Trans>Scan a tag</Trans>
            </Shortcut>
          ) : null}
          {ability.can('manage', 'subscription') ? (
            <Shortcut href={href('/app/plans')} icon={CreditCard}>
              <Trans>Plans</Trans>
            </Shortcut>
          ) : null}
          {ability.can('read', 'organization') ? (
            <Shortcut href={href(`/app/organizations/${profile.selectedOrganizationId}`)} icon={Building2}>
              <Trans>My organization</Trans>
            </Shortcut>
          ) : (
            <Shortcut href={href('/app/transfers/requests')} icon={Inbox}>
              <Trans>Transfer requests</Trans>
            </Shortcut>
          )}
        </nav>
      )}
    </>
  )
}
