import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import {
  useCreatePersonalApiToken,
  usePersonalApiTokens,
  useRevokePersonalApiToken,
} from '../../api/api-tokens.ts'
import { API_BASE_URL } from '../../lib/api.ts'
import { ApiTokenList, expiresAtOf, LifetimeField, TokenShownOnce } from '../../ui/ApiTokenPieces.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { ErrorState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'

/**
 * Personal API tokens: a program acts as me through one (with my role in each organization). Loaded lazily by
 * the profile screen: integrators are few, the screen's first load stays as it was.
 */
export default function PersonalTokensCard() {
  const { t } = useLingui()
  const failed = useFailureToast()
  const tokens = usePersonalApiTokens()
  const create = useCreatePersonalApiToken()
  const revoke = useRevokePersonalApiToken()
  const [name, setName] = useState('')
  const [lifetime, setLifetime] = useState('90')
  const [made, setMade] = useState<string | null>(null)
  return (
    <Card className="mt-6 flex max-w-2xl flex-col gap-4">
      <h2 className="text-base font-semibold">
        <Trans>API tokens</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>
          A program holding one of these tokens acts as you, with your role in each organization, but never
          manages members, webhooks, tokens or calendar feeds. Keep them secret, and revoke one as soon as it
          may have leaked.
        </Trans>{' '}
        <a className="underline" href={`${API_BASE_URL}/docs`}>
          <Trans>API documentation</Trans>
        </a>
      </p>
      {made ? <TokenShownOnce token={made} onDone={() => setMade(null)} /> : null}
      <form
        className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        onSubmit={async (event) => {
          event.preventDefault()
          try {
            const created = await create.mutateAsync({ name: name.trim(), expiresAt: expiresAtOf(lifetime) })
            setMade(created.token)
            setName('')
          } catch (error) {
            failed(t`The token could not be made.`, error)
          }
        }}
      >
        <TextField label={t`Token name`} name="tokenName" value={name} onChange={setName} maxLength={100} />
        <LifetimeField value={lifetime} onChange={setLifetime} />
        <Button type="submit" isDisabled={create.isPending || name.trim() === ''}>
          <Trans>Make a token</Trans>
        </Button>
      </form>
      {tokens.isError ? (
        <ErrorState
          message={<Trans>The tokens could not be loaded.</Trans>}
          onRetry={() => void tokens.refetch()}
        />
      ) : tokens.data ? (
        <ApiTokenList
          tokens={tokens.data.data}
          label={t`My API tokens`}
          isRevoking={revoke.isPending}
          onRevoke={(token) =>
            revoke.mutate(token.id, { onError: (error) => failed(t`The token could not be revoked.`, error) })
          }
        />
      ) : null}
    </Card>
  )
}
