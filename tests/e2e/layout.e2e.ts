import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrganization } from '../../server/modules/organizations/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { type Stack, startStack } from './harness.ts'

let stack: Stack
const ADMIN = 'louise.layout@example.com'
/** A tag of the organization, on a key: its page shows the keychain and the reprint panel. */
let tagPublicId: string

beforeAll(async () => {
  stack = await startStack()
  const admin = await signInUser(stack.deps, ADMIN, 'fr')
  const organization = await createOrganization(stack.deps, admin, {
    name: 'Agence du Canal',
    address: { line1: '8 quai de Jemmapes', city: 'Paris', postalCode: '75010', country: 'FR' },
  })
  const [tag] = await stack.createTags(organization.id, { alphaCode: 'CAN', count: 3, name: 'Cave' })
  await stack.createKeychainWithTag(organization.id, 'Local vélos', tag!.id)
  tagPublicId = tag!.publicId
})

/** How wide the page is against the screen, and the elements that stick out on the right (to name the culprit). */
function sidewaysScroll(page: Page) {
  return page.evaluate(() => {
    const client = document.documentElement.clientWidth
    const beyond = [...document.body.querySelectorAll<HTMLElement>('*')]
      .filter((element) => element.getBoundingClientRect().right > client + 0.5)
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}${element.getAttribute('name') ? `[name=${element.getAttribute('name')}]` : ''}`,
      )
    return { scroll: document.documentElement.scrollWidth, client, beyond: beyond.slice(0, 5) }
  })
}

afterAll(async () => {
  await stack?.stop()
})

describe('layout on a phone and on a laptop', () => {
  it.each([
    ['/', 'Trousseau : sachez où est chaque clé'],
    ['/en', 'Trousseau: know where every key is'],
    ['/sign-in', 'Se connecter · Trousseau'],
    ['/en/sign-in', 'Sign in · Trousseau'],
  ])('%s fits a 360 px screen without sideways scrolling, titled "%s"', async (path, title) => {
    const context = await stack.newPhoneContext()
    try {
      const page = await context.newPage()
      await page.goto(path)
      await page.getByRole('heading', { level: 1 }).waitFor()
      const widths = await sidewaysScroll(page)
      expect(widths.scroll, widths.beyond.join(', ')).toBeLessThanOrEqual(widths.client)
      expect(await page.title()).toBe(title)
    } finally {
      await context.close()
    }
  })

  it.each([
    ['fr', '/app', "Format d'étiquette"],
    ['en', '/en/app', 'Label format'],
  ] as const)(
    'in %s, the tag list and a tag’s page with their reprint panel fit a 360 px screen',
    async (locale, home, format) => {
      const context = await stack.newPhoneContext()
      try {
        const page = await context.newPage()
        await stack.signIn(page, ADMIN, locale)
        await page.waitForURL((url) => url.pathname === home)
        const prefix = locale === 'fr' ? '' : '/en'
        for (const path of [`${prefix}/app/tags`, `${prefix}/tags/${tagPublicId}`]) {
          await page.goto(path)
          // The reprint panel, with its label format select, is on both screens without a click.
          await page.getByLabel(format).waitFor()
          const widths = await sidewaysScroll(page)
          expect
            .soft(widths.scroll, `${path}: ${widths.beyond.join(', ')}`)
            .toBeLessThanOrEqual(widths.client)
        }
      } finally {
        await context.close()
      }
    },
  )

  it('installs in the page’s language: the English pages link an English manifest and remember English', async () => {
    const context = await stack.browser.newContext({ baseURL: stack.baseUrl })
    try {
      const page = await context.newPage()
      for (const path of ['/en', '/en/app/scan']) {
        await page.goto(path)
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        const href = await page.locator('link[rel="manifest"]').getAttribute('href')
        expect(href, path).toBe('/manifest.en.webmanifest')
      }
      const manifest = await (await page.request.get('/manifest.en.webmanifest')).json()
      expect(manifest).toMatchObject({ lang: 'en', start_url: '/en/app', id: '/app' })
      expect((await context.cookies()).find((cookie) => cookie.name === 'locale')?.value).toBe('en')
      // Opened later at the French address (a home-screen icon from before, a typed address), it stays English.
      await page.goto('/app/scan')
      await page.waitForURL((url) => url.pathname.startsWith('/en/'))
      await page.goto('/')
      expect(await page.locator('link[rel="manifest"]').getAttribute('href')).toBe('/manifest.en.webmanifest')
    } finally {
      await context.close()
    }
  })

  it('shows the not-found view for what does not exist, and ends every page that waits', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      for (const path of [
        '/app/keychains/00000000-0000-4000-8000-000000000000',
        '/app/organizations/00000000-0000-4000-8000-000000000000/new-order',
        '/app/orders/00000000-0000-4000-8000-000000000000',
      ]) {
        await page.goto(path)
        await page.getByRole('heading', { name: 'Page introuvable' }).waitFor()
        expect(await page.getByRole('button', { name: 'Réessayer' }).count(), path).toBe(0)
      }
      await page.goto('/app/order-result')
      await page.getByRole('heading', { name: 'Aucune commande à vérifier' }).waitFor()
      expect(await page.getByText('Vérification du paiement…').count()).toBe(0)
    })
  })

  it('shows every menu entry of the side bar at 1280×800, and names each screen in the tab', async () => {
    const context = await stack.browser.newContext({
      baseURL: stack.baseUrl,
      viewport: { width: 1280, height: 800 },
    })
    try {
      const page = await context.newPage()
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      const menu = page.getByRole('navigation', { name: 'Menu principal' })
      const links = menu.getByRole('link')
      await links.last().waitFor()
      const count = await links.count()
      expect(count).toBeGreaterThanOrEqual(9)
      for (let index = 0; index < count; index += 1) {
        const box = await links.nth(index).boundingBox()
        expect(box, `menu entry ${index}`).not.toBeNull()
        expect(box!.y + box!.height, `menu entry ${index} ends inside the window`).toBeLessThanOrEqual(800)
      }
      await page.waitForFunction(() => document.title === 'Tableau de bord · Trousseau')
      await links.filter({ hasText: 'Trousseaux' }).click()
      await page.waitForFunction(() => document.title === 'Trousseaux · Trousseau')
    } finally {
      await context.close()
    }
  })
})
