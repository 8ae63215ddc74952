import { Trans, useLingui } from '@lingui/react/macro'
import { useApiTokens } from '../../api/api-tokens.ts'
import { ApiTokensCard } from '../../ui/ApiTokensCard.tsx'

/**
 * The organization's API tokens (its admins'): a program acts in this organization only, with the role chosen
 * here. Loaded lazily by the organization page, for admins only.
 */
export default function OrganizationTokensCard({ organizationId }: { organizationId: string }) {
  const { t } = useLingui()
  return (
    <ApiTokensCard
      source={useApiTokens(organizationId)}
      chooseRole
      title={<Trans>API tokens of the organization</Trans>}
      listLabel={t`API tokens of the organization`}
      intro={
        <Trans>
          A program holding one of these tokens acts in this organization only, with the role chosen here, but
          never manages members, webhooks or tokens. A token made for the identity provider (SCIM: Entra ID,
          Okta, Google, Keycloak) serves only to add, change and disable the organization's people, who get
          the role chosen here. A token is revoked for good once the administrator who made it is no longer
          one.
        </Trans>
      }
    />
  )
}
