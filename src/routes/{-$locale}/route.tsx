import { i18n } from '@lingui/core'
import { t } from '@lingui/core/macro'
import { createFileRoute, notFound, Outlet, redirect } from '@tanstack/react-router'
import type { Locale } from '../../../contract/locale.ts'
import { createSession } from '../../api/auth.ts'
import { setSignedInProfile } from '../../app/session.ts'
import { activateLocale } from '../../lib/i18n.ts'
import { localizedHref } from '../../lib/paths.ts'
import { toasts } from '../../ui/toast/store.ts'

export const Route = createFileRoute('/{-$locale}')({
  beforeLoad: async ({ params, location, context }) => {
    if (params.locale !== undefined && params.locale !== 'en') throw notFound()
    const locale: Locale = params.locale === 'en' ? 'en' : 'fr'
    await activateLocale(locale)
    // A `token` query parameter on any route (the e-mailed link) signs in, then goes to /app.
    const token = new URLSearchParams(location.searchStr).get('token')
    if (token) {
      // The start-up restore must land first, or its answer (a previous account) could overwrite this one.
      await context.sessionReady
      try {
        setSignedInProfile(context.queryClient, await createSession({ token }))
      } catch (error) {
        // The messages of every error code load only when a sign-in link fails (and are left out if they cannot).
        const detail = await import('../../lib/error-message.ts')
          .then((module) => module.errorMessage(error, i18n))
          .catch(() => undefined)
        toasts.add({
          severity: 'error',
          summary: t`Sign-in failed. Please try again.`,
          ...(detail ? { detail } : {}),
          life: 8000,
        })
        throw redirect({ href: localizedHref(locale, '/sign-in'), replace: true })
      }
      throw redirect({ href: localizedHref(locale, '/app'), replace: true })
    }
    return { locale }
  },
  component: Outlet,
})
