import { Trans } from '@lingui/react/macro'
import { useLocation, useNavigate } from '@tanstack/react-router'
import {
  ArrowRightLeft,
  ChartNoAxesColumn,
  ClipboardCheck,
  Handshake,
  History,
  Inbox,
  KeyRound,
  LayoutDashboard,
  LifeBuoy,
  MapPin,
  type Menu,
  Package,
  ScanLine,
  Tags,
  Users,
} from 'lucide-react'
import type { MouseEvent, ReactNode } from 'react'
import type { Locale } from '../../contract/locale.ts'
import type { Action, Subject } from '../../contract/permissions.ts'
import { useAbility } from '../lib/ability.tsx'
import { type AppPath, localizedHref } from '../lib/paths.ts'

export type MenuEntry = {
  path: AppPath
  label: ReactNode
  icon: typeof Menu
  exact?: boolean
  needs?: [Action, Subject]
}

/** In the field: what a phone is for. */
export const FIELD_MENU: MenuEntry[] = [
  { path: '/app', label: <Trans>Dashboard</Trans>, icon: LayoutDashboard, exact: true },
  { path: '/app/scan', label: <Trans>Scan a tag</Trans>, icon: ScanLine, needs: ['create', 'scan'] },
  {
    path: '/app/handover',
    label: <Trans>Receive a keychain</Trans>,
    icon: Handshake,
    needs: ['create', 'handover'],
  },
  { path: '/app/transfers/requests', label: <Trans>Transfer requests</Trans>, icon: Inbox },
]

/** At the office: the organization's lists. */
export const MANAGEMENT_MENU: MenuEntry[] = [
  { path: '/app/keychains', label: <Trans>Keychains</Trans>, icon: KeyRound, needs: ['read', 'keychain'] },
  {
    path: '/app/transfers',
    label: <Trans>Transfers</Trans>,
    icon: ArrowRightLeft,
    // Contacts see their own transfers as requests; the organization's list is for its members.
    needs: ['read', 'keychain'],
  },
  { path: '/app/tags', label: <Trans>Tags</Trans>, icon: Tags, needs: ['read', 'tag'] },
  // Contacts never see places (read__place is for members and up).
  { path: '/app/places', label: <Trans>Places</Trans>, icon: MapPin, needs: ['read', 'place'] },
  {
    path: '/app/stocktakes',
    label: <Trans>Stocktakes</Trans>,
    icon: ClipboardCheck,
    needs: ['read', 'stocktake'],
  },
  { path: '/app/users', label: <Trans>Users</Trans>, icon: Users, needs: ['read', 'member'] },
  { path: '/app/orders', label: <Trans>Orders</Trans>, icon: Package, needs: ['read', 'order'] },
  {
    path: '/app/reports',
    label: <Trans>Reports</Trans>,
    icon: ChartNoAxesColumn,
    needs: ['read', 'activity'],
  },
  { path: '/app/activity', label: <Trans>Activity</Trans>, icon: History, needs: ['read', 'activity'] },
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
export function useMenuEntries(entries: MenuEntry[], organizationSelected: boolean): MenuEntry[] {
  const ability = useAbility()
  if (!organizationSelected) return entries
  return entries.filter((entry) => !entry.needs || ability.can(...entry.needs))
}

const ALL_PATHS: AppPath[] = [...FIELD_MENU, ...MANAGEMENT_MENU].map((entry) => entry.path)

/** The entry's page or one below it, unless a longer entry (Transfer requests under Transfers) claims it. */
function isActive(entry: MenuEntry, pathname: string, locale: Locale, paths: AppPath[]): boolean {
  const href = localizedHref(locale, entry.path)
  if (entry.exact) return pathname === href || pathname === `${href}/`
  return (
    (pathname === href || pathname.startsWith(`${href}/`)) &&
    !paths.some(
      (other) => other.startsWith(`${entry.path}/`) && pathname.startsWith(localizedHref(locale, other)),
    )
  )
}

/** A link of the menu: followed inside the SPA (the menu closes), or in a new tab with a modifier. */
export function NavItem({
  entry,
  locale,
  onNavigate,
  paths = ALL_PATHS,
}: {
  entry: MenuEntry
  locale: Locale
  onNavigate: () => void
  paths?: AppPath[]
}) {
  const navigate = useNavigate()
  const { pathname } = useLocation()
  const href = localizedHref(locale, entry.path)
  const active = isActive(entry, pathname, locale, paths)
  const Icon = entry.icon
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || event.button !== 0) return
    event.preventDefault()
    onNavigate()
    void navigate({ href })
  }
  return (
    // 28 px high on a wide screen (a mouse's target; WCAG's minimum is 24): the whole menu fits 720 px.
    <a
      href={href}
      onClick={follow}
      aria-current={active ? 'page' : undefined}
      className={`flex min-h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium lg:min-h-7 ${
        active ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
      }`}
    >
      <Icon aria-hidden className="size-5 shrink-0 lg:size-4" />
      {entry.label}
    </a>
  )
}

/** A titled group of the menu. */
export function MenuGroup({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <h2 className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">{title}</h2>
      {children}
    </div>
  )
}
