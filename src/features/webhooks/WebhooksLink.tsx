import { Trans } from '@lingui/react/macro'
import { useAbility } from '../../lib/ability.tsx'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Card } from '../../ui/Card.tsx'

/**
 * On the organization's page, for its admins while it is the selected one (webhooks belong to the selected
 * organization): the way to its webhooks, whose screen loads only when opened.
 */
export function WebhooksLink({
  organizationId,
  selectedOrganizationId,
}: {
  organizationId: string
  selectedOrganizationId: string | null
}) {
  const ability = useAbility()
  const href = useHref()
  if (organizationId !== selectedOrganizationId || !ability.can('manage', 'webhook')) return null
  return (
    <Card className="mt-6 max-w-3xl">
      <h2 className="mb-2 text-base font-semibold">
        <Trans>Webhooks</Trans>
      </h2>
      <p className="mb-2 text-sm text-slate-700">
        <Trans>
          Send the organization's events (transfers, found keys, orders) to your own systems, signed.
        </Trans>
      </p>
      <AppLink href={href('/app/webhooks')}>
        <Trans>Manage the webhooks</Trans>
      </AppLink>
    </Card>
  )
}
