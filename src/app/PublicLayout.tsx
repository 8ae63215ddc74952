import { Trans } from '@lingui/react/macro'
import { LayoutDashboard } from 'lucide-react'
import type { ReactNode } from 'react'
import { useProfile } from '../api/profile.ts'
import { useHref, useLocale } from '../lib/use-locale.ts'
import { OfflineBanner } from '../offline/OfflineBanner.tsx'
import { AppLink } from '../ui/AppLink.tsx'
import { Logo } from '../ui/Logo.tsx'
import { LanguageSwitch } from './LanguageSwitch.tsx'

/** Pages outside the app shell (tag pages): the logo leads home, or to the app when signed in. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const href = useHref()
  const locale = useLocale()
  const signedIn = useProfile() !== null
  return (
    <div className="min-h-dvh bg-slate-50">
      <header className="mx-auto flex max-w-4xl flex-wrap items-center justify-between gap-2 px-4 py-4 sm:px-6">
        <AppLink href={href(signedIn ? '/app' : '/')} className="rounded-lg" aria-label="Trousseau">
          <Logo />
        </AppLink>
        <div className="flex items-center gap-1">
          {signedIn ? (
            <AppLink
              href={href('/app')}
              className="inline-flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-brand-800 hover:bg-brand-100"
            >
              <LayoutDashboard aria-hidden className="size-4" />
              <Trans>My dashboard</Trans>
            </AppLink>
          ) : null}
          <LanguageSwitch locale={locale} />
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 pb-16 sm:px-6">
        {signedIn ? <OfflineBanner /> : null}
        {children}
      </main>
    </div>
  )
}
