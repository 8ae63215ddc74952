import { Trans, useLingui } from '@lingui/react/macro'
import type { Organization } from '../../../contract/organizations.ts'
import { createOrganization } from '../../api/organizations.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { toasts } from '../../ui/toast/store.ts'
import { OrganizationForm } from './OrganizationForm.tsx'

export function OrganizationNewScreen({
  onCreated,
}: {
  onCreated: (organization: Organization) => Promise<void>
}) {
  const { t } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  return (
    <>
      <PageHeader title={<Trans>New organization</Trans>} />
      <Card className="max-w-2xl">
        <OrganizationForm
          locale={locale}
          submitLabel={<Trans>Create the organization</Trans>}
          onSubmit={async (input) => {
            try {
              const organization = await createOrganization(input)
              toasts.add({ severity: 'success', summary: t`The organization has been created.`, life: 4000 })
              await onCreated(organization)
            } catch (error) {
              failed(t`The organization could not be created.`, error)
            }
          }}
        />
      </Card>
    </>
  )
}
