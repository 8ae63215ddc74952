import type { ReactNode } from 'react'
import type { Profile } from '../../../contract/auth.ts'
import type { Locale } from '../../../contract/locale.ts'
import { localizedHref } from '../../lib/paths.ts'
import { Logo } from '../../ui/Logo.tsx'
import { SignInScreen } from './SignInScreen.tsx'

/** The sign-in page as a whole (no app layout): prerendered for the first visit, and the SPA's route. */
export function SignInPage({
  locale,
  languageSwitch,
  onSignedIn,
}: {
  locale: Locale
  languageSwitch: ReactNode
  onSignedIn: (profile: Profile) => void
}) {
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <header className="flex items-center justify-between px-4 py-4 sm:px-6">
        <a href={localizedHref(locale, '/')}>
          <Logo />
        </a>
        {languageSwitch}
      </header>
      <main className="flex flex-1 items-start justify-center px-4 pt-8 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <SignInScreen locale={locale} onSignedIn={onSignedIn} />
        </div>
      </main>
    </div>
  )
}
