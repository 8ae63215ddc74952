import { Trans, useLingui } from '@lingui/react/macro'
import type { Order } from '../../contract/commerce.ts'
import { hasPermission } from '../../contract/permissions.ts'
import { CartButton } from '../features/cart/CartButton.tsx'
import { OrganizationSwitcher } from '../features/organizations/OrganizationSwitcher.tsx'
import { SyncIndicator } from '../offline/SyncIndicator.tsx'
import { AccountMenu } from './AccountMenu.tsx'
import type { AccountPanelProps } from './AccountPanel.tsx'
import { FIELD_MENU, MANAGEMENT_MENU, MenuGroup, NavItem, useMenuEntries } from './menu.tsx'

export type AppNavigationProps = Omit<AccountPanelProps, 'onNavigate' | 'organizationSwitcher'> & {
  /** The cart (once an organization is selected) made an order. */
  onOrdered: (order: Order) => void
  /** The side bar of a wide screen, or the sheet a phone's menu button opens. */
  placement: 'side' | 'sheet'
  onNavigate: () => void
}

/** The menu and the account: the side bar's content on a wide screen, the menu sheet's on a phone. */
export default function AppNavigation({ placement, onOrdered, onNavigate, ...account }: AppNavigationProps) {
  const { t } = useLingui()
  const { profile } = account
  const selected = profile.selectedOrganizationId !== null
  // Composed here, not by the layout: their code loads with the menu's, in one go.
  const syncStatus = <SyncIndicator userId={profile.id} />
  const cartButton =
    profile.selectedOrganizationId && hasPermission(profile.permissions, 'read', 'cart') ? (
      <CartButton organizationId={profile.selectedOrganizationId} onOrdered={onOrdered} />
    ) : null
  const field = useMenuEntries(FIELD_MENU, selected)
  const management = useMenuEntries(MANAGEMENT_MENU, selected)
  const nav = (
    <nav aria-label={t`Main menu`} className="flex flex-col gap-2">
      <MenuGroup title={<Trans>Field</Trans>}>
        {field.map((entry) => (
          <NavItem key={entry.path} entry={entry} locale={account.locale} onNavigate={onNavigate} />
        ))}
        {syncStatus}
      </MenuGroup>
      {management.length > 0 || cartButton ? (
        <MenuGroup title={<Trans>Management</Trans>}>
          {management.map((entry) => (
            <NavItem key={entry.path} entry={entry} locale={account.locale} onNavigate={onNavigate} />
          ))}
          {cartButton}
        </MenuGroup>
      ) : null}
    </nav>
  )
  const accountMenu = (
    <AccountMenu
      {...account}
      organizationSwitcher={<OrganizationSwitcher selectedId={profile.selectedOrganizationId} />}
      onNavigate={onNavigate}
    />
  )
  // On a phone the account comes first: its menu opens downwards, in view.
  return placement === 'sheet' ? (
    <>
      <div className="border-b border-slate-200 pb-2">{accountMenu}</div>
      {nav}
    </>
  ) : (
    <>
      <div className="flex-1">{nav}</div>
      <div className="border-t border-slate-200 pt-2">{accountMenu}</div>
    </>
  )
}
