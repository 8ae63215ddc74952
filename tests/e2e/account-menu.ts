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
