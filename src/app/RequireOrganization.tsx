import { Trans } from '@lingui/react/macro'
import { Building2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { useProfile } from '../api/profile.ts'
import { useHref } from '../lib/use-locale.ts'
import { AppLink } from '../ui/AppLink.tsx'
import { buttonClass } from '../ui/Button.tsx'
import { Card } from '../ui/Card.tsx'

/** Screens about the selected organization's data; without one, a prompt to create or choose one. */
export function RequireOrganization({ children }: { children: (organizationId: string) => ReactNode }) {
  const profile = useProfile()
  const href = useHref()
  const organizationId = profile?.selectedOrganizationId
  if (organizationId) return <>{children(organizationId)}</>
  return (
    <Card className="flex max-w-2xl flex-col items-start gap-4">
      <Building2 aria-hidden className="size-8 text-brand-700" />
      <h1 className="text-lg font-semibold text-slate-900">
        <Trans>No organization selected</Trans>
      </h1>
      <p className="text-slate-700">
        <Trans>
          Choose an organization in the menu, or create one, to see its keychains, tags and members.
        </Trans>
      </p>
      <AppLink href={href('/app/organizations/new')} className={buttonClass('primary')}>
        <Trans>Create an organization</Trans>
      </AppLink>
    </Card>
  )
}
