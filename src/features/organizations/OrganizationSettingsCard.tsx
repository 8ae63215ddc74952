import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { HandoverReceivers, OrganizationUpdate, StocktakeRole } from '../../../contract/organizations.ts'
import { useUpdateOrganization } from '../../api/organizations.ts'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'

/** Who may scan into a stocktake: the organization's stocktake role and every role above it, widest first. */
const STOCKTAKE_ROLE_LABELS: Record<StocktakeRole, MessageDescriptor> = {
  MEMBER: msg`Members, managers and admins`,
  MANAGER: msg`Managers and admins`,
  ADMIN: msg`Admins only`,
}

/** Who may be handed a keychain from phone to phone. */
const HANDOVER_RECEIVERS_LABELS: Record<HandoverReceivers, MessageDescriptor> = {
  MEMBERS: msg`Members only`,
  MEMBERS_AND_CONTACTS: msg`Members, and contacts during a transfer authorized to them`,
}

/** The organization's settings an ADMIN may change (the page shows it to them only), saved together. */
export function OrganizationSettingsCard({
  organizationId,
  stocktakeRole,
  handoverReceivers,
}: {
  organizationId: string
  stocktakeRole: StocktakeRole
  handoverReceivers: HandoverReceivers
}) {
  const { t, i18n } = useLingui()
  const update = useUpdateOrganization(organizationId)
  const failed = useFailureToast()
  const [role, setRole] = useState(stocktakeRole)
  const [receivers, setReceivers] = useState(handoverReceivers)
  const [saved, setSaved] = useState({ role: stocktakeRole, receivers: handoverReceivers })
  const { pending, submit } = useSubmit(async () => {
    try {
      // Only what changed: two admins changing different settings at once keep both changes.
      const changes: OrganizationUpdate = {
        ...(role === saved.role ? {} : { stocktakeRole: role }),
        ...(receivers === saved.receivers ? {} : { handoverReceivers: receivers }),
      }
      if (Object.keys(changes).length > 0) await update.mutateAsync(changes)
      setSaved({ role, receivers })
      toasts.add({ severity: 'success', summary: t`The settings are saved.`, life: 5000 })
    } catch (error) {
      await failed(t`The settings could not be saved.`, error)
    }
  })
  return (
    <Card className="mt-6">
      <h2 className="mb-4 font-semibold text-slate-900">
        <Trans>Settings</Trans>
      </h2>
      <form
        noValidate
        aria-label={t`Settings of the organization`}
        className="grid max-w-xl items-start gap-4"
        onSubmit={(event) => void submit(event)}
      >
        <SelectField
          label={t`Who may scan in stocktakes`}
          name="stocktakeRole"
          value={role}
          options={(Object.keys(STOCKTAKE_ROLE_LABELS) as StocktakeRole[]).map((each) => ({
            value: each,
            label: i18n._(STOCKTAKE_ROLE_LABELS[each]),
          }))}
          onChange={(value) => setRole(value as StocktakeRole)}
          description={<Trans>The others can follow a stocktake, but their scans are refused.</Trans>}
        />
        <SelectField
          label={t`Who may be handed keychains from phone to phone`}
          name="handoverReceivers"
          value={receivers}
          options={(Object.keys(HANDOVER_RECEIVERS_LABELS) as HandoverReceivers[]).map((each) => ({
            value: each,
            label: i18n._(HANDOVER_RECEIVERS_LABELS[each]),
          }))}
          onChange={(value) => setReceivers(value as HandoverReceivers)}
          description={
            <Trans>
              Whoever holds a keychain may hand it over without the office. A contact receives it only within
              their transfer's dates, as its pickup.
            </Trans>
          }
        />
        <Button type="submit" className="justify-self-start" isDisabled={pending}>
          {pending ? <Trans>Saving…</Trans> : <Trans>Save</Trans>}
        </Button>
      </form>
    </Card>
  )
}
