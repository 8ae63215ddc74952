import { Trans, useLingui } from '@lingui/react/macro'
import { useApiTokens } from '../../api/api-tokens.ts'
import { ApiTokensCard } from '../../ui/ApiTokensCard.tsx'

/**
 * Personal API tokens: a program acts as me through one (with my role in each organization). Loaded lazily by
 * the profile screen: integrators are few, the screen's first load stays as it was.
 */
export default function PersonalTokensCard() {
  const { t } = useLingui()
  return (
    <ApiTokensCard
      source={useApiTokens(null)}
      className="max-w-2xl"
      title={<Trans>API tokens</Trans>}
      listLabel={t`My API tokens`}
      intro={
        <Trans>
          A program holding one of these tokens acts as you, with your role in each organization, but never
          manages members, webhooks, tokens or calendar feeds. Keep them secret, and revoke one as soon as it
          may have leaked.
        </Trans>
      }
    />
  )
}
