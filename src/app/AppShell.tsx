import { Trans, useLingui } from '@lingui/react/macro'
import { useLocation } from '@tanstack/react-router'
import { Menu, X } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react'
import type { Profile } from '../../contract/auth.ts'
import type { Locale } from '../../contract/locale.ts'
import type { Theme } from '../../contract/theme.ts'
import { useUpdateProfile } from '../api/profile.ts'
import { afterLoadWhenIdle } from '../lib/idle.ts'
import { useMediaQuery } from '../lib/use-media-query.ts'
import { NeedsConnection, OfflineBanner } from '../offline/OfflineBanner.tsx'
import { Logo } from '../ui/Logo.tsx'
import type { AppNavigationProps } from './AppNavigation.tsx'
import { applyTheme } from './theme.ts'

// The menu and the account are not on a phone's first screen (they are behind its menu button): their code
// loads when the side bar shows (a wide screen) or once the page is idle, and so do the keyboard's shortcuts.
const loadNavigation = () => import('./AppNavigation.tsx')
const AppNavigation = lazy(loadNavigation)
const KeyboardShortcuts = lazy(() => import('./KeyboardShortcuts.tsx'))
/** Tailwind's `lg`, where the side bar shows. */
const WIDE = '(min-width: 64rem)'

/** Office screens (orders, plans, users, tag orders, payment results) need the server; field screens do not. */
const OFFICE_PATHS = [
  /^\/app\/(orders|plans|users|order-result|profile|reports)(\/|$)/,
  /^\/app\/organizations\/(new|[^/]+\/_?new-order)/,
  /^\/app\/keychains\/(new|[^/]+\/create-transfer)/,
]

function OfficeOrFieldBanner({ locale }: { locale: Locale }) {
  const { pathname } = useLocation()
  const path = locale === 'en' ? pathname.replace(/^\/en(?=\/)/, '') : pathname
  return OFFICE_PATHS.some((pattern) => pattern.test(path)) ? <NeedsConnection /> : <OfflineBanner />
}

export function AppShell({
  profile,
  locale,
  onSignOut,
  onLocaleSwitch,
  onOrdered,
  children,
}: {
  profile: Profile
  locale: Locale
  onSignOut: () => void
  onLocaleSwitch: (locale: Locale) => void
  onOrdered: AppNavigationProps['onOrdered']
  children: ReactNode
}) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const [idle, setIdle] = useState(false)
  const wide = useMediaQuery(WIDE)
  const updateProfile = useUpdateProfile()
  useEffect(
    () =>
      afterLoadWhenIdle(() => {
        setIdle(true)
        void loadNavigation() // the phone's menu then opens at once
      }),
    [],
  )
  // The account's theme, also mirrored for the next first paint (the inline script of the page's head).
  useEffect(() => applyTheme(profile.theme), [profile.theme])
  const changeTheme = (theme: Theme) => {
    applyTheme(theme)
    updateProfile.mutate({ theme }, { onError: (error) => console.warn('Saving the theme failed', error) })
  }
  const close = () => setOpen(false)
  const navigation = (placement: AppNavigationProps['placement']) => (
    <Suspense fallback={null}>
      <AppNavigation
        placement={placement}
        profile={profile}
        locale={locale}
        onOrdered={onOrdered}
        onLocaleSwitch={onLocaleSwitch}
        onThemeChange={changeTheme}
        onSignOut={onSignOut}
        onNavigate={close}
      />
    </Suspense>
  )

  return (
    <div className="min-h-dvh lg:grid lg:grid-cols-[16rem_1fr]">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        <Trans>Skip to content</Trans>
      </a>
      <header className="sticky top-0 z-30 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4 lg:hidden">
        <Logo />
        <button
          type="button"
          aria-expanded={open}
          aria-controls="mobile-menu"
          onClick={() => setOpen((value) => !value)}
          className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-slate-100"
        >
          {open ? <X aria-hidden className="size-6" /> : <Menu aria-hidden className="size-6" />}
          <span className="sr-only">{open ? t`Close menu` : t`Open menu`}</span>
        </button>
      </header>
      {open && !wide ? (
        <div
          id="mobile-menu"
          className="fixed inset-x-0 top-14 bottom-0 z-20 flex flex-col gap-4 overflow-y-auto bg-white p-4 lg:hidden"
        >
          {navigation('sheet')}
        </div>
      ) : null}
      {/* The whole side bar scrolls when the window is short: no entry hides behind the account block. */}
      <aside className="sticky top-0 hidden h-dvh flex-col gap-3 overflow-y-auto border-r border-slate-200 bg-white p-3 lg:flex">
        <Logo className="px-3 pt-1" />
        {wide ? navigation('side') : null}
      </aside>
      <main id="main" className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
        <OfficeOrFieldBanner locale={locale} />
        {children}
      </main>
      {idle || wide ? (
        <Suspense fallback={null}>
          <KeyboardShortcuts locale={locale} />
        </Suspense>
      ) : null}
    </div>
  )
}
