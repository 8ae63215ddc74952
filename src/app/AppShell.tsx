import { Trans, useLingui } from '@lingui/react/macro'
import { useLocation, useNavigate } from '@tanstack/react-router'
import {
  ArrowRightLeft,
  Building2,
  ChartNoAxesColumn,
  CreditCard,
  History,
  Inbox,
  KeyRound,
  LayoutDashboard,
  LifeBuoy,
  LogOut,
  Menu,
  Package,
  ScanLine,
  UserRound,
  Users,
  X,
} from 'lucide-react'
import { type MouseEvent, type ReactNode, useState } from 'react'
import type { Profile } from '../../contract/auth.ts'
import type { Locale } from '../../contract/locale.ts'
import type { Action, Subject } from '../../contract/permissions.ts'
import { useAbility } from '../lib/ability.tsx'
import { type AppPath, localizedHref } from '../lib/paths.ts'
import { NeedsConnection, OfflineBanner } from '../offline/OfflineBanner.tsx'
import { Logo } from '../ui/Logo.tsx'
import { LanguageSwitch } from './LanguageSwitch.tsx'

type MenuEntry = {
  path: AppPath
  label: ReactNode
  icon: typeof Menu
  exact?: boolean
  needs?: [Action, Subject]
}

const MENU: MenuEntry[] = [
  { path: '/app', label: <Trans>Dashboard</Trans>, icon: LayoutDashboard, exact: true },
  { path: '/app/keychains', label: <Trans>Keychains</Trans>, icon: KeyRound, needs: ['read', 'keychain'] },
  { path: '/app/orders', label: <Trans>Orders</Trans>, icon: Package, needs: ['read', 'order'] },
  {
    path: '/app/plans',
    label: <Trans>Plans</Trans>,
    icon: CreditCard,
    needs: ['manage', 'subscription'],
  },
  { path: '/app/organizations', label: <Trans>Organizations</Trans>, icon: Building2 },
  { path: '/app/profile', label: <Trans>My profile</Trans>, icon: UserRound },
  {
    path: '/app/transfers',
    label: <Trans>Transfers</Trans>,
    icon: ArrowRightLeft,
    // Contacts see their own transfers as requests; the organization's list is for its members.
    needs: ['read', 'keychain'],
  },
  { path: '/app/transfers/requests', label: <Trans>Transfer requests</Trans>, icon: Inbox },
  { path: '/app/scan', label: <Trans>Scan a tag</Trans>, icon: ScanLine, needs: ['create', 'scan'] },
  { path: '/app/users', label: <Trans>Users</Trans>, icon: Users, needs: ['read', 'member'] },
  { path: '/app/activity', label: <Trans>Activity</Trans>, icon: History, needs: ['read', 'activity'] },
  {
    path: '/app/reports',
    label: <Trans>Reports</Trans>,
    icon: ChartNoAxesColumn,
    needs: ['read', 'activity'],
  },
  {
    path: '/app/found-reports',
    label: <Trans>Found keys</Trans>,
    icon: LifeBuoy,
    needs: ['read', 'found_report'],
  },
]

/**
 * The full menu until an organization is selected (each entry then explains what to do); with one, the entries
 * the caller's role cannot use are hidden.
 */
function useMenu(organizationSelected: boolean): MenuEntry[] {
  const ability = useAbility()
  if (!organizationSelected) return MENU
  return MENU.filter((entry) => !entry.needs || ability.can(...entry.needs))
}

function NavItem({
  entry,
  locale,
  onNavigate,
}: {
  entry: MenuEntry
  locale: Locale
  onNavigate: () => void
}) {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const href = localizedHref(locale, entry.path)
  const active = entry.exact
    ? pathname === href || pathname === `${href}/`
    : pathname.startsWith(href) &&
      !MENU.some(
        (other) =>
          other.path.startsWith(`${entry.path}/`) && pathname.startsWith(localizedHref(locale, other.path)),
      )
  const Icon = entry.icon
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
    event.preventDefault()
    onNavigate()
    void navigate({ href })
  }
  return (
    <a
      href={href}
      onClick={follow}
      aria-current={active ? 'page' : undefined}
      className={`flex min-h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium lg:min-h-9 ${
        active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
      }`}
    >
      <Icon aria-hidden className="size-5 shrink-0" />
      {entry.label}
    </a>
  )
}

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
  organizationSwitcher,
  cartButton,
  syncStatus,
  children,
}: {
  profile: Profile
  locale: Locale
  onSignOut: () => void
  onLocaleSwitch: (locale: Locale) => void
  organizationSwitcher: ReactNode
  /** Shown once an organization is selected. */
  cartButton: ReactNode
  /** Online or offline, what waits to be sent. */
  syncStatus: ReactNode
  children: ReactNode
}) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const menu = useMenu(profile.selectedOrganizationId !== null)
  const nav = (
    <nav aria-label={t`Main menu`} className="flex flex-col gap-1">
      <div className="mb-3">{organizationSwitcher}</div>
      {menu.map((entry) => (
        <NavItem key={entry.path} entry={entry} locale={locale} onNavigate={() => setOpen(false)} />
      ))}
    </nav>
  )
  const account = (
    <div className="flex flex-col gap-2 border-t border-slate-200 pt-4">
      <p className="truncate px-3 text-sm text-slate-600" title={profile.email}>
        {profile.email}
      </p>
      {syncStatus}
      {cartButton}
      <LanguageSwitch locale={locale} onSwitch={onLocaleSwitch} />
      <button
        type="button"
        onClick={onSignOut}
        className="flex min-h-11 items-center gap-2 rounded-lg px-3 text-sm font-semibold text-slate-800 hover:bg-slate-200/70 lg:min-h-10"
      >
        <LogOut aria-hidden className="size-4" />
        <Trans>Sign out</Trans>
      </button>
    </div>
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
      {open ? (
        <div
          id="mobile-menu"
          className="fixed inset-x-0 top-14 bottom-0 z-20 flex flex-col gap-4 overflow-y-auto bg-white p-4 lg:hidden"
        >
          {nav}
          {account}
        </div>
      ) : null}
      {/* The whole side bar scrolls when the window is short: no entry hides behind the account block. */}
      <aside className="sticky top-0 hidden h-dvh flex-col gap-4 overflow-y-auto border-r border-slate-200 bg-white p-4 lg:flex">
        <Logo className="px-3 pt-2" />
        <div className="flex-1">{nav}</div>
        {account}
      </aside>
      <main id="main" className="mx-auto w-full max-w-6xl px-4 py-6 sm:px-6 lg:px-10 lg:py-10">
        <OfficeOrFieldBanner locale={locale} />
        {children}
      </main>
    </div>
  )
}
