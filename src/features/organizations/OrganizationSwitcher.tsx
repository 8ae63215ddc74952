import { useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Building2 } from 'lucide-react'
import { organizationsQuery, useSelectOrganization } from '../../api/organizations.ts'

/**
 * Picks the selected organization. The server's default is matched against the list; choosing one saves it as the
 * default and refreshes what depends on it (profile permissions, lists, the cart).
 */
export function OrganizationSwitcher({ selectedId }: { selectedId: string | null }) {
  const { t } = useLingui()
  const { select, isPending } = useSelectOrganization()
  const { data: organizations } = useQuery(organizationsQuery)
  if (!organizations || organizations.length === 0) return null
  const known = organizations.some((organization) => organization.id === selectedId)
  return (
    <label className="flex flex-col gap-1 px-3 text-sm">
      <span className="flex items-center gap-1.5 font-medium text-slate-600">
        <Building2 aria-hidden className="size-4" />
        {t`Organization`}
      </span>
      <select
        value={known ? (selectedId ?? '') : ''}
        disabled={isPending}
        onChange={(event) => void select(event.target.value)}
        className="min-h-11 w-full rounded-lg lg:min-h-10 border border-slate-300 bg-white px-2 py-1.5 text-sm font-semibold text-slate-900"
      >
        {known ? null : <option value="">{t`Choose an organization`}</option>}
        {organizations.map((organization) => (
          <option key={organization.id} value={organization.id}>
            {organization.name}
          </option>
        ))}
      </select>
    </label>
  )
}
