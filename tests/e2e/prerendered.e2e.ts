import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAccountMenu } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

const PAGES = [
  { path: '/', lang: 'fr', heading: 'Sachez où est chaque clé, et qui la détient.' },
  { path: '/en', lang: 'en', heading: 'Know where every key is, and who holds it.' },
  { path: '/sign-in', lang: 'fr', heading: 'Se connecter' },
  { path: '/en/sign-in', lang: 'en', heading: 'Sign in' },
]

describe('prerendered public pages', () => {
  it('show their heading with JavaScript disabled, in French and English, sent compressed', async () => {
    const context = await stack.browser.newContext({ baseURL: stack.baseUrl, javaScriptEnabled: false })
    try {
      const page = await context.newPage()
      for (const { path, lang, heading } of PAGES) {
        const response = await page.goto(path)
        expect(response?.status()).toBe(200)
        expect(['br', 'gzip']).toContain(await response?.headerValue('content-encoding'))
        expect(await response?.headerValue('cache-control')).toBe('no-cache')
        expect(await page.locator('html').getAttribute('lang')).toBe(lang)
        await page.getByRole('heading', { level: 1, name: heading, exact: true }).waitFor()
      }
      // Without JavaScript the sign-in form cannot work: the page says so, and cannot send it by mistake.
      await page.goto('/sign-in')
      expect(await page.locator('noscript').textContent()).toContain('JavaScript')
      expect(await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).isDisabled()).toBe(
        true,
      )
      // The language switch is a link: it works without JavaScript, even against a cookie that says English.
      await context.addCookies([{ name: 'locale', value: 'en', url: stack.baseUrl }])
      await page.goto('/en/')
      await page.getByRole('link', { name: 'Switch language to Français' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      await page
        .getByRole('heading', { level: 1, name: 'Sachez où est chaque clé, et qui la détient.' })
        .waitFor()
    } finally {
      await context.close()
    }
  })

  it('hydrate without a mismatch: the form validates, the language link keeps the redirect', async () => {
    await stack.withPage(async (page) => {
      const errors: string[] = []
      page.on('console', (message) => {
        // The page asks whether the visitor is signed in: a signed-out visitor's 401 is expected.
        if (message.type() === 'error' && !message.text().includes('status of 401'))
          errors.push(message.text())
      })
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto('/sign-in?redirect=%2Fapp%2Fscan')
      await page.locator('#root[data-ready]').waitFor()
      // Only a hydrated form answers a submit with its own message.
      await page.getByLabel('E-mail').fill('not an address')
      await page.getByRole('button', { name: 'Recevoir un lien de connexion' }).click()
      await page.getByText('Saisissez une adresse e-mail valide.').waitFor()
      await page.getByRole('link', { name: 'Passer en English' }).click()
      await page.waitForURL((url) => url.pathname === '/en/sign-in')
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/app/scan')
      await page.getByRole('heading', { level: 1, name: 'Sign in', exact: true }).waitFor()
      // The English page was a page load of its own: hydrated too, and the choice is remembered.
      expect((await page.context().cookies()).find((cookie) => cookie.name === 'locale')?.value).toBe('en')
      await page.locator('#root[data-ready]').waitFor()
      await page.getByLabel('E-mail').fill('x')
      await page.getByRole('button', { name: 'Receive a sign-in link' }).click()
      await page.getByText('Enter a valid e-mail address.').waitFor()
      expect(errors).toEqual([])
    })
  })

  it('ship the landing page with no framework: one small classic script, which registers the service worker', async () => {
    await stack.withPage(async (page) => {
      const scripts: string[] = []
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname)
      })
      await page.goto('/en/')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      expect(scripts).toHaveLength(1)
      expect(scripts[0]).toMatch(/^\/assets\/landing-[\w-]+\.js$/)
      expect(await page.locator('script[type="module"], link[rel="modulepreload"]').count()).toBe(0)
      // The language link remembers the choice before the page it leads to loads.
      await page.getByRole('link', { name: 'Switch language to Français' }).click()
      await page.waitForURL((url) => url.pathname === '/')
      expect((await page.context().cookies()).find((cookie) => cookie.name === 'locale')?.value).toBe('fr')
    })
  })

  it('answers the English page on a French address when the locale cookie asks for English', async () => {
    await stack.withPage(async (page, context) => {
      await context.addCookies([{ name: 'locale', value: 'en', url: stack.baseUrl }])
      await page.goto('/')
      await page
        .getByRole('heading', { level: 1, name: 'Know where every key is, and who holds it.' })
        .waitFor()
      await page.waitForURL((url) => url.pathname === '/en/')
    })
  })

  it('sends a signed-in visitor of the sign-in page to the app, and signs in from the prerendered page', async () => {
    await stack.withPage(async (page) => {
      await page.goto('/en/sign-in?redirect=%2Fen%2Fapp%2Fprofile')
      await stack.signInByCode(page, 'prerendered@example.com', 'en')
      await page.waitForURL((url) => url.pathname === '/en/app/profile')
      await page.getByRole('heading', { name: 'My profile' }).waitFor()
      // Having used the English pages, the visitor is remembered as English: the French address leads there.
      await page.goto('/sign-in')
      await page.waitForURL((url) => url.pathname === '/en/app')
    })
  })

  it('sends a signed-in visitor of the static landing page into the app at once', async () => {
    // No service worker: the server's static page answers, not the SPA's shell the worker would.
    const context = await stack.browser.newContext({ baseURL: stack.baseUrl, serviceWorkers: 'block' })
    try {
      const page = await context.newPage()
      await stack.signInByCode(page, 'landing@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      await page.getByRole('navigation', { name: 'Menu principal' }).first().waitFor()
      await page.goto('/')
      await page.waitForURL((url) => url.pathname === '/app')
      // Signed out, the landing page stays.
      await openAccountMenu(page)
      await page.getByRole('button', { name: 'Se déconnecter' }).first().click()
      await page.waitForURL((url) => url.pathname === '/sign-in' || url.pathname === '/')
      await page.goto('/')
      await page
        .getByRole('heading', { level: 1, name: 'Sachez où est chaque clé, et qui la détient.' })
        .waitFor()
      expect(new URL(page.url()).pathname).toBe('/')
    } finally {
      await context.close()
    }
  })
})
