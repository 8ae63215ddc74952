import type { Page } from 'playwright-core'

/**
 * Opens the app shell's account menu (profile, plans, organizations and their switch, theme, language, sign
 * out) and waits for its content, which loads the first time it opens.
 */
export async function openAccountMenu(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: /^(Compte|Account) ?:/ }).first()
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click()
  await page
    .getByRole('button', { name: /^(Se déconnecter|Sign out)$/ })
    .first()
    .waitFor()
}

/** The menu's page links as read, without the sync status (a link too, whose text changes). */
export function withoutSyncStatus(entries: string[]): string[] {
  return entries.filter((entry) => !/^(État de la synchronisation|Sync status)/.test(entry))
}

/**
 * Shows the sync status (connectivity, what waits to be sent): in the side bar on a wide screen, behind the
 * menu button on a phone. The menu loads after the page, so this waits for the status itself before a test
 * reads "nothing waiting" from it.
 */
export async function showSyncStatus(page: Page): Promise<void> {
  const status = page.getByTestId('connectivity')
  if (await status.isVisible()) return
  const menu = page.getByRole('button', { name: /^(Ouvrir le menu|Open menu)$/ })
  if (await menu.isVisible()) await menu.click()
  await status.waitFor()
}
