import { Trans, useLingui } from '@lingui/react/macro'
import { type ReactNode, useState } from 'react'
import { API_TOKEN_NAME_MAX, type ApiToken } from '../../contract/api-tokens.ts'
import { ROLES, type Role } from '../../contract/permissions.ts'
import { API_BASE_URL } from '../lib/api.ts'
import { formatDateTime } from '../lib/format.ts'
import { ROLE_LABELS } from '../lib/labels.ts'
import { useLocale } from '../lib/use-locale.ts'
import { Button } from './Button.tsx'
import { Card } from './Card.tsx'
import { ConfirmDialog } from './ConfirmDialog.tsx'
import { useFailureToast } from './failure-toast.ts'
import { SelectField } from './SelectField.tsx'
import { ErrorState } from './States.tsx'
import { TextField } from './TextField.tsx'
import { toasts } from './toast/store.ts'

/** What the card needs of the data layer: `useApiTokens` of src/api/api-tokens.ts answers it. */
export type ApiTokensSource = {
  tokens: { data?: { data: ApiToken[] } | undefined; isError: boolean; refetch: () => unknown }
  create: {
    mutateAsync: (input: {
      name: string
      role: Role
      expiresAt: string | null
      kind?: TokenKind
    }) => Promise<{ token: string }>
    isPending: boolean
  }
  revoke: { mutate: (id: string, options: { onError: (error: unknown) => void }) => void; isPending: boolean }
}

type TokenKind = 'organization' | 'scim'

/**
 * A card of API tokens, personal (the profile's) or an organization's (`chooseRole`: each token acts with the
 * role chosen when it is made, or, made for the identity provider, gives that role to the people it adds): the
 * tokens, a form that makes one (its secret shown once), revoking (asked first).
 */
export function ApiTokensCard({
  source: { tokens, create, revoke },
  title,
  listLabel,
  intro,
  chooseRole = false,
  className = '',
}: {
  source: ApiTokensSource
  title: ReactNode
  listLabel: string
  intro: ReactNode
  chooseRole?: boolean
  className?: string
}) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('MEMBER')
  const [kind, setKind] = useState<TokenKind>('organization')
  const [lifetime, setLifetime] = useState('90')
  const [made, setMade] = useState<{ token: string; kind: TokenKind } | null>(null)
  return (
    <Card className={`mt-6 flex flex-col gap-4 ${className}`}>
      <h2 className="text-base font-semibold">{title}</h2>
      <p className="text-sm text-slate-600">
        {intro}{' '}
        <a className="underline" href={`${API_BASE_URL}/docs`}>
          <Trans>API documentation</Trans>
        </a>
      </p>
      {made ? <TokenShownOnce {...made} onDone={() => setMade(null)} /> : null}
      <form
        className={`grid gap-3 sm:items-end ${chooseRole ? 'sm:grid-cols-[1fr_auto_auto_auto_auto]' : 'sm:grid-cols-[1fr_auto_auto]'}`}
        onSubmit={async (event) => {
          event.preventDefault()
          try {
            const created = await create.mutateAsync({
              name: name.trim(),
              role,
              expiresAt: expiresAtOf(lifetime),
              ...(chooseRole ? { kind } : {}),
            })
            setMade({ token: created.token, kind })
            setName('')
          } catch (error) {
            failed(t`The token could not be made.`, error)
          }
        }}
      >
        <TextField
          label={t`Token name`}
          name="tokenName"
          value={name}
          onChange={setName}
          maxLength={API_TOKEN_NAME_MAX}
        />
        {chooseRole ? (
          <SelectField
            label={t`For`}
            name="tokenKind"
            value={kind}
            onChange={(value) => setKind(value as TokenKind)}
            options={[
              { value: 'organization', label: t`A program (API)` },
              { value: 'scim', label: t`The identity provider (SCIM)` },
            ]}
          />
        ) : null}
        {chooseRole ? (
          <SelectField
            label={kind === 'scim' ? t`Role of the people it adds` : t`Acts as`}
            name="tokenRole"
            value={role}
            onChange={(value) => setRole(value as Role)}
            options={ROLES.map((each) => ({ value: each, label: i18n._(ROLE_LABELS[each]) }))}
          />
        ) : null}
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
          label={listLabel}
          showRole={chooseRole}
          isRevoking={revoke.isPending}
          onRevoke={(token) =>
            revoke.mutate(token.id, { onError: (error) => failed(t`The token could not be revoked.`, error) })
          }
        />
      ) : null}
    </Card>
  )
}

const DAY = 24 * 60 * 60 * 1000
/** Expiry choices, in days (0: never). */
const LIFETIMES = [30, 90, 365, 0] as const

/** The expiry a choice of the lifetime select stands for: an instant, or null for never. */
const expiresAtOf = (days: string, now = Date.now()) =>
  days === '0' ? null : new Date(now + Number(days) * DAY).toISOString()

function LifetimeField({ value, onChange }: { value: string; onChange: (days: string) => void }) {
  const { t } = useLingui()
  return (
    <SelectField
      label={t`Expires`}
      name="lifetime"
      value={value}
      onChange={onChange}
      options={LIFETIMES.map((days) => ({
        value: String(days),
        label: days === 0 ? t`Never` : t`In ${days} days`,
      }))}
    />
  )
}

/** A token just made: shown this once, with a copy button (and, for the identity provider, where it goes). */
function TokenShownOnce({ token, kind, onDone }: { token: string; kind: TokenKind; onDone: () => void }) {
  const { t } = useLingui()
  return (
    <div className="flex flex-col gap-2 rounded-lg bg-brand-50 p-3" role="status">
      <TextField label={t`New token`} name="apiToken" value={token} onChange={() => undefined} isReadOnly />
      {kind === 'scim' ? (
        <TextField
          label={t`SCIM base URL (tenant URL)`}
          name="scimUrl"
          value={new URL(API_BASE_URL.replace(/\/api$/, '/scim/v2'), window.location.origin).toString()}
          onChange={() => undefined}
          isReadOnly
        />
      ) : null}
      <p className="text-sm">
        <Trans>Copy it now and keep it somewhere safe: it is shown only once.</Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          onPress={async () => {
            try {
              await navigator.clipboard.writeText(token)
              toasts.add({ severity: 'success', summary: t`Token copied.`, life: 3000 })
            } catch {
              toasts.add({ severity: 'warn', summary: t`Copying failed: select the token and copy it.` })
            }
          }}
        >
          <Trans>Copy</Trans>
        </Button>
        <Button variant="ghost" onPress={onDone}>
          <Trans>Done</Trans>
        </Button>
      </div>
    </div>
  )
}

/** The tokens, each with when it was made, last used and expires, and a revoke button (asked first). */
function ApiTokenList({
  tokens,
  label,
  showRole,
  onRevoke,
  isRevoking,
}: {
  tokens: ApiToken[]
  label: string
  showRole?: boolean
  onRevoke: (token: ApiToken) => void
  isRevoking: boolean
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const [asked, setAsked] = useState<ApiToken | null>(null)
  if (tokens.length === 0)
    return (
      <p className="text-sm text-slate-600">
        <Trans>No token yet.</Trans>
      </p>
    )
  const now = Date.now()
  return (
    <>
      <ul className="flex flex-col divide-y divide-slate-200" aria-label={label}>
        {tokens.map((token) => {
          const made = formatDateTime(token.createdAt, locale)
          const used = token.lastUsedAt ? formatDateTime(token.lastUsedAt, locale) : null
          const expires = token.expiresAt ? formatDateTime(token.expiresAt, locale) : null
          const expired = token.expiresAt !== null && Date.parse(token.expiresAt) <= now
          const creator =
            `${token.createdBy.firstName} ${token.createdBy.lastName}`.trim() || token.createdBy.email
          return (
            <li key={token.id} className="flex flex-wrap items-start justify-between gap-2 py-2">
              <div className="flex flex-col text-sm">
                <span className="font-medium text-slate-900">
                  {token.name} <code className="text-xs text-slate-600">{token.prefix}…</code>
                  {token.kind === 'scim' ? ` · ${t`identity provider (SCIM)`}` : null}
                  {showRole && token.role ? ` · ${i18n._(ROLE_LABELS[token.role])}` : null}
                </span>
                <span className="text-slate-600">
                  {showRole ? (
                    <Trans>
                      Made on {made} by {creator}
                    </Trans>
                  ) : (
                    <Trans>Made on {made}</Trans>
                  )}
                  {' · '}
                  {used ? <Trans>last used {used}</Trans> : <Trans>never used</Trans>}
                  {' · '}
                  {expired ? (
                    <Trans>expired {expires}</Trans>
                  ) : expires ? (
                    <Trans>expires {expires}</Trans>
                  ) : (
                    <Trans>does not expire</Trans>
                  )}
                </span>
              </div>
              <Button variant="secondary" isDisabled={isRevoking} onPress={() => setAsked(token)}>
                <Trans>Revoke</Trans>
              </Button>
            </li>
          )
        })}
      </ul>
      <ConfirmDialog
        isOpen={asked !== null}
        onOpenChange={(open) => (open ? undefined : setAsked(null))}
        title={t`Revoke this token?`}
        confirmLabel={<Trans>Revoke</Trans>}
        isPending={isRevoking}
        onConfirm={() => {
          if (asked) onRevoke(asked)
          setAsked(null)
        }}
      >
        <Trans>Programs using it are refused from their next request. This cannot be undone.</Trans>
      </ConfirmDialog>
    </>
  )
}
