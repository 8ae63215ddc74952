import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema.ts'
import { DEMO_MEMBERS, seedDemo } from '../../server/seed/demo.ts'
import { openAccountMenu, withoutSyncStatus } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'

// The app shell of issue 23: the theme saved per account and painted first, the grouped menu with the account
// in one menu, the desktop shortcuts.

const ADMIN = DEMO_MEMBERS.find((member) => member.role === 'ADMIN')!.email
const MEMBER = DEMO_MEMBERS.find((member) => member.role === 'MEMBER')!.email

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
  await seedDemo(stack.deps)
})

afterAll(async () => {
  await stack?.stop()
})

const isDark = () => document.documentElement.classList.contains('dark')

describe('theme (issue 23)', () => {
  it('follows the system until the account chooses; the choice is the account’s, painted before any script of the app', async () => {
    const context = await stack.browser.newContext({
      baseURL: stack.baseUrl,
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
      // The page's own requests only (a service worker would answer some itself).
      serviceWorkers: 'block',
    })
    try {
      const page = await context.newPage()
      const refused: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
      })
      await page.goto('/')
      expect(await page.evaluate(isDark)).toBe(true)
      // The system changes its mind: the page follows.
      await page.emulateMedia({ colorScheme: 'light' })
      await expect.poll(() => page.evaluate(isDark)).toBe(false)

      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await openAccountMenu(page)
      await page.locator('label', { hasText: 'Sombre' }).click()
      // The radio follows the profile's cached copy, re-rendered after the click: wait for it, not for a frame.
      await expect.poll(() => page.getByRole('radio', { name: 'Sombre' }).isChecked()).toBe(true)
      await expect.poll(() => page.evaluate(isDark)).toBe(true)
      await expect
        .poll(
          async () => ((await (await page.request.get('/api/profile')).json()) as { theme: string }).theme,
        )
        .toBe('dark')
      const [saved] = await stack.deps.database.db
        .select({ theme: users.theme })
        .from(users)
        .where(eq(users.email, ADMIN))
      expect(saved?.theme).toBe('dark')

      // Without any of the app's scripts, the page's head alone paints it dark (the system says light).
      await page.route('**/assets/*.js', (route) => route.abort())
      await page.goto('/app/keychains')
      expect(await page.evaluate(isDark)).toBe(true)
      await page.unroute('**/assets/*.js')

      // Another browser of the same account gets the account's theme once signed in.
      const other = await stack.browser.newContext({ baseURL: stack.baseUrl, colorScheme: 'light' })
      try {
        const second = await other.newPage()
        await stack.signIn(second, ADMIN)
        await second.waitForURL((url) => url.pathname === '/app')
        await expect.poll(() => second.evaluate(isDark)).toBe(true)
        // Signing out leaves the theme to the system again.
        await openAccountMenu(second)
        await second.getByRole('button', { name: 'Se déconnecter' }).click()
        await second.waitForURL((url) => !url.pathname.startsWith('/app'))
        await expect.poll(() => second.evaluate(isDark)).toBe(false)
      } finally {
        await other.close()
      }

      // Light, chosen, stays light under a dark system.
      await page.emulateMedia({ colorScheme: 'dark' })
      await page.goto('/app')
      await openAccountMenu(page)
      await page.locator('label', { hasText: 'Clair' }).click()
      await expect.poll(() => page.evaluate(isDark)).toBe(false)
      await page.reload()
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      expect(await page.evaluate(isDark)).toBe(false)
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
  })
})

describe('menu (issue 23)', () => {
  it('groups field and management, keeps the account in one menu, and hides nothing at 1280×720', async () => {
    const context = await stack.browser.newContext({
      baseURL: stack.baseUrl,
      viewport: { width: 1280, height: 720 },
    })
    try {
      const page = await context.newPage()
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      const menu = page.getByRole('navigation', { name: 'Menu principal' })
      await menu.getByRole('link', { name: 'Clés trouvées' }).waitFor()
      expect(await menu.getByRole('heading').allTextContents()).toEqual(['Terrain', 'Gestion'])
      expect(withoutSyncStatus(await menu.getByRole('link').allTextContents())).toEqual([
        'Tableau de bord',
        'Scanner une étiquette',
        'Recevoir un trousseau',
        'Demandes de transfert',
        'Trousseaux',
        'Transferts',
        'Étiquettes',
        'Emplacements',
        'Inventaires',
        'Utilisateurs',
        'Commandes',
        'Rapports',
        'Activité',
        'Clés trouvées',
      ])
      await openAccountMenu(page)
      const controls = page.locator('aside').first().locator('a, button, select, input[type="radio"] + svg')
      const count = await controls.count()
      expect(count).toBeGreaterThan(18)
      for (let index = 0; index < count; index += 1) {
        const box = await controls.nth(index).boundingBox()
        expect(box, `control ${index}`).not.toBeNull()
        expect(box!.y, `control ${index} starts inside the window`).toBeGreaterThanOrEqual(0)
        expect(box!.y + box!.height, `control ${index} ends inside the window`).toBeLessThanOrEqual(720)
      }
      // The sidebar does not scroll: everything is there at once.
      const sidebar = await page
        .locator('aside')
        .first()
        .evaluate((element) => element.scrollHeight <= element.clientHeight)
      expect(sidebar).toBe(true)
      await page.getByRole('link', { name: 'Mon profil' }).click()
      await page.waitForURL((url) => url.pathname === '/app/profile')
      // Following an entry closes the menu.
      expect(await page.getByRole('button', { name: 'Se déconnecter' }).count()).toBe(0)
    } finally {
      await context.close()
    }
  })

  it('at 360 px: the menu opens over the page, the account menu in it, and Escape closes the account menu', async () => {
    const context = await stack.newPhoneContext()
    try {
      const page = await context.newPage()
      await stack.signIn(page, MEMBER)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.getByRole('button', { name: 'Ouvrir le menu' }).click()
      const menu = page.getByRole('navigation', { name: 'Menu principal' }).first()
      await menu.getByRole('link', { name: 'Étiquettes' }).waitFor()
      const account = page.getByRole('button', { name: /^Compte :/ }).first()
      await account.click()
      const signOut = page.getByRole('button', { name: 'Se déconnecter' })
      await signOut.waitFor()
      // First in the sheet, it opens downwards in view.
      await expect
        .poll(async () => {
          const box = await signOut.boundingBox()
          return box && { inside: box.y >= 56 && box.y + box.height <= 740, y: box.y }
        })
        .toMatchObject({ inside: true })
      expect(await page.getByRole('link', { name: 'Formules' }).count()).toBe(0)
      const widths = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }))
      expect(widths.scroll).toBeLessThanOrEqual(widths.client)
      await page.keyboard.press('Escape')
      expect(await page.getByRole('button', { name: 'Se déconnecter' }).count()).toBe(0)
      expect(await account.getAttribute('aria-expanded')).toBe('false')
      await menu.getByRole('link', { name: 'Étiquettes' }).click()
      await page.waitForURL((url) => url.pathname.endsWith('/tags'))
    } finally {
      await context.close()
    }
  })
})

describe('keyboard shortcuts (issue 23)', () => {
  it('/ search, s scan, n new on a list, ? the list; never while typing or with a modifier', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      // The shortcuts load after the page: wait until they answer.
      await page.locator('html[data-shortcuts="on"]').waitFor({ state: 'attached' })
      // With a modifier: nothing (Ctrl+S is the browser's).
      await page.keyboard.press('Control+s')
      await page.keyboard.press('Alt+n')
      expect(new URL(page.url()).pathname).toBe('/app')
      // `/` on a screen without search: the keychains' search, focused.
      await page.keyboard.press('/')
      await page.waitForURL((url) => url.pathname === '/app/keychains')
      await expect
        .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type))
        .toBe('search')
      // Typing in it: letters are letters.
      await page.keyboard.type('s/n?')
      expect(new URL(page.url()).pathname).toBe('/app/keychains')
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('s/n?')
      await page.evaluate(() => (document.activeElement as HTMLElement).blur())
      // `n` on the list: its "new".
      await page.keyboard.press('n')
      await page.waitForURL((url) => url.pathname === '/app/keychains/new')
      // `n` on a form (not a list): nothing.
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await page.keyboard.press('n')
      expect(new URL(page.url()).pathname).toBe('/app/keychains/new')
      // `s`: scan.
      await page.keyboard.press('s')
      await page.waitForURL((url) => url.pathname === '/app/scan')
      // `?`: the list, as a dialog that Escape closes.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
      await page.keyboard.press('?')
      const dialog = page.getByRole('dialog', { name: 'Raccourcis clavier' })
      await dialog.waitFor()
      expect(await dialog.getByRole('term').allTextContents()).toEqual(['/', 's', 'n', '?'])
      // Over the dialog, shortcuts wait.
      await page.keyboard.press('s')
      expect(await dialog.isVisible()).toBe(true)
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
    })
  })
})
