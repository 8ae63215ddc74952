import { Trans, useLingui } from '@lingui/react/macro'
import { MailCheck } from 'lucide-react'
import { useEffect, useState } from 'react'
import * as v from 'valibot'
import { EmailSchema, type Profile, SignInCodeSchema } from '../../../contract/auth.ts'
import type { OidcFailure } from '../../../contract/identity.ts'
import type { Locale } from '../../../contract/locale.ts'
import {
  createSession,
  organizationSignIn,
  organizationSignInHref,
  requestSignInMail,
} from '../../api/auth.ts'
import { ApiError } from '../../lib/api.ts'
import { emailProblem } from '../../lib/email-field.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { useHydrated } from '../../lib/use-hydrated.ts'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'

type Props = { locale: Locale; onSignedIn: (profile: Profile) => void }

/**
 * One field's submit: its value checked first (`problem`, shown under the field until the value changes), then
 * `send`; pending meanwhile. Plain React state: the prerendered sign-in page loads no form library.
 */
function useFieldSubmit(
  problem: (value: string) => string | undefined,
  send: (value: string) => Promise<void>,
) {
  const [value, setValue] = useState('')
  const [error, setError] = useState<string | undefined>()
  const { pending, submit } = useSubmit(async () => {
    const found = problem(value)
    setError(found)
    if (!found) await send(value)
  })
  const change = (next: string) => {
    setValue(next)
    setError(undefined)
  }
  return { value, setValue, change, error, pending, submit }
}

type Covering = { email: string; organizationName: string }

/** The organization whose own sign-in covers the typed address, asked a moment after typing stops. */
function useCovering(value: string): [Covering | null, (covering: Covering | null) => void] {
  const [covering, setCovering] = useState<Covering | null>(null)
  useEffect(() => {
    const parsed = v.safeParse(EmailSchema, value)
    if (!parsed.success) return
    let current = true
    const timer = setTimeout(() => {
      organizationSignIn(parsed.output)
        .then((found) => {
          if (current) setCovering(found ? { email: parsed.output, ...found } : null)
        })
        .catch(() => undefined)
    }, 400)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [value])
  const shown = covering && covering.email === v.safeParse(EmailSchema, value).output ? covering : null
  return [shown, setCovering]
}

function OrganizationSignIn({ covering, locale }: { covering: Covering; locale: Locale }) {
  const { organizationName } = covering
  return (
    <div role="status" className="flex flex-col gap-3 rounded-lg border border-brand-300 bg-brand-50 p-4">
      <p className="text-slate-900">
        <Trans>{organizationName} signs you in with its own account.</Trans>
      </p>
      <a className={buttonClass('primary')} href={organizationSignInHref(covering.email, locale)}>
        <Trans>Continue with {organizationName}</Trans>
      </a>
    </div>
  )
}

function EmailStep({ locale, onSent }: { locale: Locale; onSent: (email: string) => void }) {
  const { t, i18n } = useLingui()
  const hydrated = useHydrated()
  const field = useFieldSubmit(
    (value) => emailProblem(value, i18n),
    async (value) => {
      const email = v.parse(EmailSchema, value)
      try {
        await requestSignInMail(email, locale)
        onSent(email)
      } catch (error) {
        if (error instanceof ApiError && error.code === 'sso_required') {
          const found = await organizationSignIn(email).catch(() => null)
          if (found) return setCovering({ email, ...found })
        }
        const rateLimited = error instanceof ApiError && error.status === 429
        toasts.add({
          severity: 'error',
          summary: rateLimited ? t`Too many attempts. Please wait a few minutes.` : t`An error occurred.`,
          life: 6000,
        })
      }
    },
  )
  const [covering, setCovering] = useCovering(field.value)
  return (
    <form noValidate className="flex flex-col gap-5" onSubmit={(event) => void field.submit(event)}>
      <TextField
        label={t`E-mail`}
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        autoFocus
        value={field.value}
        onChange={field.change}
        error={field.error}
      />
      {covering ? <OrganizationSignIn covering={covering} locale={locale} /> : null}
      <Button
        type="submit"
        variant={covering ? 'secondary' : 'primary'}
        isDisabled={field.pending || !hydrated}
      >
        {field.pending ? <Trans>Sending…</Trans> : <Trans>Receive a sign-in link</Trans>}
      </Button>
    </form>
  )
}

function CodeStep({
  email,
  onSignedIn,
  onRestart,
}: {
  email: string
  onSignedIn: (profile: Profile) => void
  onRestart: () => void
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  // A new build must not reload the page over a code being typed.
  useUnsavedChanges(true)
  const field = useFieldSubmit(
    (value) => (v.safeParse(SignInCodeSchema, value).success ? undefined : t`The code must be 6 digits.`),
    async (value) => {
      try {
        onSignedIn(await createSession({ email, code: value.trim() }))
      } catch (error) {
        field.setValue('')
        failed(t`Sign-in failed. Please try again.`, error)
      }
    },
  )
  return (
    <div className="flex flex-col gap-5">
      <div
        role="status"
        className="flex gap-3 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-950"
      >
        <MailCheck aria-hidden className="mt-0.5 size-5 shrink-0" />
        <p>
          <Trans>
            A link and a code were sent to <strong className="[overflow-wrap:anywhere]">{email}</strong>. Open
            the link, or type the code below. Both are valid for 10 minutes.
          </Trans>
        </p>
      </div>
      <form noValidate className="flex flex-col gap-5" onSubmit={(event) => void field.submit(event)}>
        <TextField
          label={t`6-digit code`}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          autoFocus
          value={field.value}
          onChange={(value) => field.change(value.replace(/\D/g, ''))}
          error={field.error}
        />
        <Button type="submit" isDisabled={field.pending}>
          {field.pending ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
        </Button>
      </form>
      <Button variant="ghost" onPress={onRestart}>
        <Trans>Use another address or send a new code</Trans>
      </Button>
    </div>
  )
}

/** Why the organization's sign-in sent the person back (`?sso=<reason>`), in words. */
function OrganizationSignInRefused() {
  const { t } = useLingui()
  const hydrated = useHydrated()
  // Read once hydrated: the prerendered page has no query string.
  const reason = hydrated ? new URLSearchParams(window.location.search).get('sso') : null
  if (!reason) return null
  const messages: Record<OidcFailure, string> = {
    expired_attempt: t`The sign-in took too long or was already used. Please start again.`,
    provider_error: t`Your organization’s sign-in refused or cancelled the request.`,
    issuer: t`Your organization’s sign-in answered as another issuer than the one configured: ask your administrator to check it.`,
    audience: t`The sign-in answer was meant for another application: ask your administrator to check the client id.`,
    nonce: t`The sign-in answer does not belong to this attempt (it may have been replayed). Please start again.`,
    expired_token: t`The sign-in answer had expired (check this device’s clock). Please start again.`,
    invalid_token: t`The sign-in answer could not be verified. Please start again, or ask your administrator.`,
    no_email: t`Your organization’s sign-in gave no verified e-mail address.`,
    other_domain: t`No organization’s sign-in covers this address: receive a code by e-mail instead.`,
    disabled: t`Your access to this organization is disabled. Ask one of its administrators.`,
    unreachable: t`Your organization’s sign-in cannot be reached right now. Please try again later.`,
  }
  return (
    <p role="alert" className="mb-6 rounded-lg border border-red-300 bg-red-50 p-4 text-red-900">
      {messages[reason as OidcFailure] ?? messages.invalid_token}
    </p>
  )
}

export function SignInScreen({ locale, onSignedIn }: Props) {
  const [email, setEmail] = useState<string | null>(null)
  return (
    <div className="w-full max-w-md">
      <h1 className="mb-2 text-2xl font-bold tracking-tight text-slate-900">
        <Trans>Sign in</Trans>
      </h1>
      <OrganizationSignInRefused />
      <p className="mb-6 text-slate-700">
        <Trans>No password: we e-mail you a one-time link and a 6-digit code.</Trans>
      </p>
      {email === null ? (
        <EmailStep locale={locale} onSent={setEmail} />
      ) : (
        <CodeStep email={email} onSignedIn={onSignedIn} onRestart={() => setEmail(null)} />
      )}
    </div>
  )
}
