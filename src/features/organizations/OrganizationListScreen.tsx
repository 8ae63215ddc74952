import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { hasPermission, permissionsFor } from '../../../contract/permissions.ts'
import { organizationsQuery } from '../../api/organizations.ts'
import { ROLE_LABELS } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Badge } from '../../ui/Badge.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { countryName } from './countries.ts'

export function OrganizationListScreen({ selectedId }: { selectedId: string | null }) {
  const { t, i18n } = useLingui()
  const href = useHref()
  const locale = useLocale()
  const { data, isPending, isError, refetch } = useQuery(organizationsQuery)
  const create = (
    <AppLink href={href('/app/organizations/new')} className={buttonClass('primary')}>
      <Plus aria-hidden className="size-4" />
      <Trans>New organization</Trans>
    </AppLink>
  )
  return (
    <>
      <PageHeader title={<Trans>Organizations</Trans>}>{create}</PageHeader>
      {isPending ? (
        <LoadingState label={<Trans>Loading organizations…</Trans>} />
      ) : isError ? (
        <ErrorState
          message={<Trans>The organizations could not be loaded.</Trans>}
          onRetry={() => void refetch()}
        />
      ) : data.length === 0 ? (
        <EmptyState title={<Trans>You belong to no organization yet.</Trans>}>{create}</EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2">
          {data.map((organization) => (
            <li key={organization.id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="mb-2 flex flex-wrap items-center gap-2">
                {hasPermission(permissionsFor(organization.role), 'read', 'organization') ? (
                  <AppLink
                    href={href(`/app/organizations/${organization.id}`)}
                    className="text-lg font-semibold text-slate-900 hover:underline"
                  >
                    {organization.name}
                  </AppLink>
                ) : (
                  // A contact borrows keychains; the organization's own page is for its members.
                  <span className="text-lg font-semibold text-slate-900">{organization.name}</span>
                )}
                {organization.id === selectedId ? <Badge tone="brand">{t`Selected`}</Badge> : null}
              </div>
              <p className="text-sm text-slate-700">
                {organization.address.city}, {countryName(organization.address.country, locale)}
              </p>
              <p className="mt-2 text-sm text-slate-600">{i18n._(ROLE_LABELS[organization.role])}</p>
            </li>
          ))}
        </ul>
      )}
    </>
  )
}
