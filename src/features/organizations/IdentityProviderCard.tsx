import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { IdentityDomain, IdentitySettings } from '../../../contract/identity.ts'
import { ROLES, type Role } from '../../../contract/permissions.ts'
import {
  identitySettingsQuery,
  useAddIdentityDomain,
  useRemoveIdentityDomain,
  useRemoveIdentityProvider,
  useSaveIdentityProvider,
  useVerifyIdentityDomain,
} from '../../api/identity.ts'
import { formatDateTime } from '../../lib/format.ts'
import { ROLE_LABELS } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { ErrorState } from '../../ui/States.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'

function ProviderForm({ organizationId, settings }: { organizationId: string; settings: IdentitySettings }) {
  const { t, i18n } = useLingui()
  const failed = useFailureToast()
  const save = useSaveIdentityProvider(organizationId)
  const remove = useRemoveIdentityProvider(organizationId)
  const [issuer, setIssuer] = useState(settings.provider?.issuer ?? '')
  const [clientId, setClientId] = useState(settings.provider?.clientId ?? '')
  const [clientSecret, setClientSecret] = useState('')
  const [defaultRole, setDefaultRole] = useState<Role>(settings.provider?.defaultRole ?? 'MEMBER')
  return (
    <form
      className="grid gap-3 sm:grid-cols-2"
      onSubmit={async (event) => {
        event.preventDefault()
        try {
          await save.mutateAsync({
            issuer: issuer.trim(),
            clientId: clientId.trim(),
            defaultRole,
            ...(clientSecret ? { clientSecret } : {}),
          })
          setClientSecret('')
          toasts.add({ severity: 'success', summary: t`Identity provider saved.`, life: 3000 })
        } catch (error) {
          failed(t`The identity provider could not be saved.`, error)
        }
      }}
    >
      <TextField label={t`Issuer`} name="issuer" type="url" value={issuer} onChange={setIssuer} isRequired />
      <TextField label={t`Client id`} name="clientId" value={clientId} onChange={setClientId} isRequired />
      <TextField
        label={t`Client secret`}
        name="clientSecret"
        type="password"
        autoComplete="off"
        value={clientSecret}
        onChange={setClientSecret}
        description={
          settings.provider ? t`Leave empty to keep the one stored (it is never shown).` : undefined
        }
      />
      <SelectField
        label={t`Role of people who first sign in`}
        name="defaultRole"
        value={defaultRole}
        onChange={(value) => setDefaultRole(value as Role)}
        options={ROLES.map((role) => ({ value: role, label: i18n._(ROLE_LABELS[role]) }))}
      />
      <div className="flex flex-wrap gap-3 sm:col-span-2">
        <Button type="submit" isDisabled={save.isPending}>
          <Trans>Save the provider</Trans>
        </Button>
        {settings.provider ? (
          <Button
            variant="secondary"
            isDisabled={remove.isPending}
            onPress={() =>
              remove.mutate(undefined, {
                onError: (error) => failed(t`The identity provider could not be removed.`, error),
              })
            }
          >
            <Trans>Remove the provider</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  )
}

function DomainStatus({ domain }: { domain: IdentityDomain }) {
  const locale = useLocale()
  if (domain.verifiedAt === null)
    return (
      <span className="text-slate-700">
        <Trans>
          Pending: publish the DNS record TXT <code className="break-all">{domain.txtName}</code> ={' '}
          <code className="break-all">{domain.txtValue}</code>
        </Trans>
      </span>
    )
  const since = formatDateTime(domain.verifiedAt, locale)
  return domain.proof === 'DNS' ? (
    <span className="text-emerald-800">
      <Trans>Proven by its DNS record on {since}</Trans>
    </span>
  ) : (
    <span className="text-amber-900">
      <Trans>Confirmed by an administrator on {since}, without DNS proof</Trans>
    </span>
  )
}

function Domains({ organizationId, settings }: { organizationId: string; settings: IdentitySettings }) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const add = useAddIdentityDomain(organizationId)
  const verify = useVerifyIdentityDomain(organizationId)
  const remove = useRemoveIdentityDomain(organizationId)
  const [domain, setDomain] = useState('')
  return (
    <section className="flex flex-col gap-3">
      <h3 className="font-semibold text-slate-900">
        <Trans>E-mail domains it covers</Trans>
      </h3>
      {settings.domains.length === 0 ? (
        <p className="text-sm text-slate-600">
          <Trans>No domain yet: people sign in by e-mail code.</Trans>
        </p>
      ) : (
        <ul className="flex flex-col divide-y divide-slate-200" aria-label={t`E-mail domains it covers`}>
          {settings.domains.map((each) => (
            <li key={each.domain} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <div className="flex flex-col">
                <span className="font-medium text-slate-900">{each.domain}</span>
                <DomainStatus domain={each} />
              </div>
              <div className="flex gap-2">
                {each.verifiedAt === null ? (
                  <Button
                    variant="secondary"
                    isDisabled={verify.isPending}
                    onPress={() =>
                      verify.mutate(each.domain, {
                        onError: (error) => failed(t`The domain could not be proven.`, error),
                      })
                    }
                  >
                    {settings.domainProof === 'dns' ? (
                      <Trans>Check the DNS record</Trans>
                    ) : (
                      <Trans>Confirm it is ours</Trans>
                    )}
                  </Button>
                ) : null}
                <Button
                  variant="ghost"
                  isDisabled={remove.isPending}
                  onPress={() =>
                    remove.mutate(each.domain, {
                      onError: (error) => failed(t`The domain could not be removed.`, error),
                    })
                  }
                >
                  <Trans>Remove</Trans>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={async (event) => {
          event.preventDefault()
          try {
            await add.mutateAsync(domain.trim())
            setDomain('')
          } catch (error) {
            failed(t`The domain could not be added.`, error)
          }
        }}
      >
        <TextField label={t`Domain`} name="domain" value={domain} onChange={setDomain} />
        <Button type="submit" variant="secondary" isDisabled={add.isPending || domain.trim() === ''}>
          <Trans>Add the domain</Trans>
        </Button>
      </form>
    </section>
  )
}

/**
 * The organization's own sign-in (OpenID Connect), for its admins: the provider, the redirect URI to register
 * there, and the e-mail domains it covers. Loaded lazily by the organization page.
 */
export default function IdentityProviderCard({ organizationId }: { organizationId: string }) {
  const settings = useQuery(identitySettingsQuery(organizationId))
  return (
    <Card className="mt-6 flex flex-col gap-4">
      <h2 className="text-base font-semibold">
        <Trans>Sign-in with your identity provider</Trans>
      </h2>
      {settings.isError ? (
        <ErrorState
          message={<Trans>The sign-in settings could not be loaded.</Trans>}
          onRetry={() => void settings.refetch()}
        />
      ) : settings.data ? (
        <>
          <p className="text-sm text-slate-600">
            <Trans>
              People of the domains below sign in with the organization’s own account (Entra ID, Google
              Workspace, Okta, Keycloak: any OpenID Connect provider) and get an account here the first time.
              Register this redirect URI at the provider:
            </Trans>{' '}
            <code className="break-all">{settings.data.redirectUri}</code>
          </p>
          <ProviderForm
            key={settings.data.provider?.updatedAt ?? 'none'}
            organizationId={organizationId}
            settings={settings.data}
          />
          <Domains organizationId={organizationId} settings={settings.data} />
        </>
      ) : null}
    </Card>
  )
}
