import { useQueryClient } from '@tanstack/react-query'
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import type { Profile } from '../../../contract/auth.ts'
import { currentProfile } from '../../api/profile.ts'
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx'
import { setSignedInProfile } from '../../app/session.ts'
import { SignInPage } from '../../features/auth/SignInPage.tsx'
import { localizedHref, safeRedirect } from '../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/sign-in')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  beforeLoad: async ({ context, search }) => {
    await context.sessionReady
    if (currentProfile(context.queryClient)) {
      throw redirect({
        href: safeRedirect(search.redirect) ?? localizedHref(context.locale, '/app'),
        replace: true,
      })
    }
  },
  component: SignIn,
})

function SignIn() {
  const { locale } = Route.useRouteContext()
  const search = Route.useSearch()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const onSignedIn = (profile: Profile) => {
    setSignedInProfile(queryClient, profile)
    void navigate({ href: safeRedirect(search.redirect) ?? localizedHref(locale, '/app'), replace: true })
  }
  return (
    <SignInPage locale={locale} languageSwitch={<LanguageSwitch locale={locale} />} onSignedIn={onSignedIn} />
  )
}
