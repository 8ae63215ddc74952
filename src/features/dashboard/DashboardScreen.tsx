import { Trans, useLingui } from '@lingui/react/macro'
import { Building2, CreditCard, KeyRound, Plus, ScanLine } from 'lucide-react'
import type { ReactNode } from 'react'
import type { Profile } from '../../../contract/auth.ts'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'

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

/** The dashboard; without a selected organization it prompts for a first one. */
export function DashboardScreen({ profile }: { profile: Profile }) {
  const { t } = useLingui()
  const href = useHref()
  const ability = useAbility()
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
          <AppLink href={href('/app/organizations/new')} className={buttonClass('primary')}>
            <Plus aria-hidden className="size-4" />
            <Trans>Create an organization</Trans>
          </AppLink>
        </Card>
      ) : (
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
          <Shortcut href={href(`/app/organizations/${profile.selectedOrganizationId}`)} icon={Building2}>
            <Trans>My organization</Trans>
          </Shortcut>
        </nav>
      )}
    </>
  )
}
