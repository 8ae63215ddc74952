import { Trans } from '@lingui/react/macro'
import { Building2, CreditCard, LogOut, UserRound } from 'lucide-react'
import type { ReactNode } from 'react'
import type { Profile } from '../../contract/auth.ts'
import type { Locale } from '../../contract/locale.ts'
import type { Theme } from '../../contract/theme.ts'
import { LanguageSwitch } from './LanguageSwitch.tsx'
import { type MenuEntry, NavItem, useMenuEntries } from './menu.tsx'
import { ThemeSwitch } from './ThemeSwitch.tsx'

const ACCOUNT_MENU: MenuEntry[] = [
  { path: '/app/profile', label: <Trans>My profile</Trans>, icon: UserRound },
  { path: '/app/plans', label: <Trans>Plans</Trans>, icon: CreditCard, needs: ['manage', 'subscription'] },
  { path: '/app/organizations', label: <Trans>Organizations</Trans>, icon: Building2 },
]

export type AccountPanelProps = {
  profile: Profile
  locale: Locale
  organizationSwitcher: ReactNode
  onLocaleSwitch: (locale: Locale) => void
  onThemeChange: (theme: Theme) => void
  onSignOut: () => void
  onNavigate: () => void
}

/** The account menu's content (loaded the first time it opens): pages, organization, theme, language, sign out. */
export default function AccountPanel({
  profile,
  locale,
  organizationSwitcher,
  onLocaleSwitch,
  onThemeChange,
  onSignOut,
  onNavigate,
}: AccountPanelProps) {
  const entries = useMenuEntries(ACCOUNT_MENU, profile.selectedOrganizationId !== null)
  return (
    <>
      {entries.map((entry) => (
        <NavItem key={entry.path} entry={entry} locale={locale} onNavigate={onNavigate} paths={[]} />
      ))}
      <div className="py-1">{organizationSwitcher}</div>
      <ThemeSwitch theme={profile.theme} onChange={onThemeChange} />
      <LanguageSwitch locale={locale} onSwitch={onLocaleSwitch} />
      <button
        type="button"
        onClick={onSignOut}
        className="flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-100 lg:min-h-9"
      >
        <LogOut aria-hidden className="size-4" />
        <Trans>Sign out</Trans>
      </button>
    </>
  )
}
