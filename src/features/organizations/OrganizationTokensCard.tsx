import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import { ROLES, type Role } from '../../../contract/permissions.ts'
import {
  useCreateOrganizationApiToken,
  useOrganizationApiTokens,
  useRevokeOrganizationApiToken,
} from '../../api/api-tokens.ts'
import { API_BASE_URL } from '../../lib/api.ts'
import { ROLE_LABELS } from '../../lib/labels.ts'
import { ApiTokenList, expiresAtOf, LifetimeField, TokenShownOnce } from '../../ui/ApiTokenPieces.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { ErrorState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'

/**
 * The organization's API tokens (its admins'): a program acts in this organization only, with the role chosen
 * here. Loaded lazily by the organization page, for admins only.
 */
export default function OrganizationTokensCard({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const tokens = useOrganizationApiTokens(organizationId)
  const create = useCreateOrganizationApiToken(organizationId)
  const revoke = useRevokeOrganizationApiToken(organizationId)
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('MEMBER')
  const [lifetime, setLifetime] = useState('90')
  const [made, setMade] = useState<string | null>(null)
  return (
    <Card className="mt-6 flex flex-col gap-4">
      <h2 className="text-base font-semibold">
        <Trans>API tokens of the organization</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>
          A program holding one of these tokens acts in this organization only, with the role chosen here, but
          never manages members, webhooks or tokens. A token is revoked for good once the administrator who
          made it is no longer one.
        </Trans>{' '}
        <a className="underline" href={`${API_BASE_URL}/docs`}>
          <Trans>API documentation</Trans>
        </a>
      </p>
      {made ? <TokenShownOnce token={made} onDone={() => setMade(null)} /> : null}
      <form
        className="grid gap-3 sm:grid-cols-[1fr_auto_auto_auto] sm:items-end"
        onSubmit={async (event) => {
          event.preventDefault()
          try {
            const created = await create.mutateAsync({
              name: name.trim(),
              role,
              expiresAt: expiresAtOf(lifetime),
            })
            setMade(created.token)
            setName('')
          } catch (error) {
            failed(t`The token could not be made.`, error)
          }
        }}
      >
        <TextField label={t`Token name`} name="tokenName" value={name} onChange={setName} maxLength={100} />
        <SelectField
          label={t`Acts as`}
          name="tokenRole"
          value={role}
          onChange={(value) => setRole(value as Role)}
          options={ROLES.map((each) => ({ value: each, label: i18n._(ROLE_LABELS[each]) }))}
        />
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
          label={t`API tokens of the organization`}
          showRole
          isRevoking={revoke.isPending}
          onRevoke={(token) =>
            revoke.mutate(token.id, { onError: (error) => failed(t`The token could not be revoked.`, error) })
          }
        />
      ) : null}
    </Card>
  )
}
