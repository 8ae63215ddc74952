import { Trans } from '@lingui/react/macro'
import { Building2 } from 'lucide-react'
import type { ReactNode } from 'react'
import type { Profile } from '../../../contract/auth.ts'
import { Card, PageHeader } from '../../ui/Card.tsx'

/** The dashboard; without a selected organization it prompts for a first one. */
export function DashboardScreen({
  profile,
  createOrganizationLink,
}: {
  profile: Profile
  createOrganizationLink: ReactNode
}) {
  const name = profile.firstName || profile.email
  return (
    <>
      <PageHeader title={<Trans>Hello {name}</Trans>} />
      {profile.selectedOrganizationId === null ? (
        <Card className="flex max-w-2xl flex-col items-start gap-4">
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
          {createOrganizationLink}
        </Card>
      ) : null}
    </>
  )
}
