import { useQueryClient } from '@tanstack/react-query'
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import type { Profile } from '../../../contract/auth.ts'
import { LanguageSwitch } from '../../app/LanguageSwitch.tsx'
import { setSignedInProfile } from '../../app/session.ts'
import { SignInScreen } from '../../features/auth/SignInScreen.tsx'
import { currentProfile } from '../../features/auth/session.ts'
import { localizedHref, safeRedirect } from '../../lib/paths.ts'
import { Logo } from '../../ui/Logo.tsx'

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
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <header className="flex items-center justify-between px-4 py-4 sm:px-6">
        <a href={localizedHref(locale, '/')}>
          <Logo />
        </a>
        <LanguageSwitch locale={locale} />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <SignInScreen locale={locale} onSignedIn={onSignedIn} />
        </div>
      </main>
    </div>
  )
}
