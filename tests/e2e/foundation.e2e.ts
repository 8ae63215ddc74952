import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAccountMenu, withoutSyncStatus } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { signInLinkOf } from './mailbox.ts'

let stack: Stack

beforeAll(async () => {
  // On the embedded default (PGlite on disk), as `npm start` runs it, whatever the CI database.
  stack = await startStack({}, { embedded: true })
  expect(stack.deps.database.driver).toBe('pglite')
})

afterAll(async () => {
  await stack?.stop()
})

const pathOf = (page: Page) => new URL(page.url()).pathname

describe('foundation, in a real browser against the real server', () => {
  it('shows the landing page in French, and in English under /en', async () => {
    await stack.withPage(async (page) => {
      await page.goto('/')
      expect(await page.locator('html').getAttribute('lang')).toBe('fr')
      await page
        .getByRole('heading', { level: 1, name: 'Sachez où est chaque clé, et qui la détient.' })
        .waitFor()
      await page.goto('/en/')
      expect(await page.locator('html').getAttribute('lang')).toBe('en')
      await page
        .getByRole('heading', { level: 1, name: 'Know where every key is, and who holds it.' })
        .waitFor()
    })
  })

  it('signs in by code in French and shows the app shell with the full menu', async () => {
    await stack.withPage(async (page) => {
      await page.goto('/')
      await page.getByRole('link', { name: 'Se connecter' }).click()
      await page.waitForURL('**/sign-in')
      await stack.signInByCode(page, 'camille@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      const menu = page.getByRole('navigation', { name: 'Menu principal' }).first()
      // The shell renders after its route chunk loads: wait for the last entry before reading them all.
      await menu.getByRole('link', { name: 'Utilisateurs' }).waitFor()
      const entries = withoutSyncStatus(await menu.getByRole('link').allTextContents())
      expect(entries).toEqual([
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
      // The account's pages are in its menu.
      await openAccountMenu(page)
      expect(
        await page
          .locator('aside')
          .getByRole('link', { name: /^(Mon profil|Formules|Organisations)$/ })
          .allTextContents(),
      ).toEqual(['Mon profil', 'Formules', 'Organisations'])
      await page.getByRole('heading', { name: 'Créez votre première organisation' }).waitFor()
    })
  })

  it('signs in by the mailed link in English', async () => {
    await stack.withPage(async (page) => {
      const already = stack.mailbox.received.length
      await page.goto('/en/sign-in')
      await page.locator('#root[data-ready]').waitFor()
      await page.getByLabel('E-mail').fill('robin@example.com')
      await page.getByRole('button', { name: 'Receive a sign-in link' }).click()
      await page.getByText('A link and a code were sent to').waitFor()
      const mail = await stack.mailbox.nextMailTo('robin@example.com', already)
      const link = signInLinkOf(mail)
      expect(new URL(link).pathname).toBe('/en/')
      await page.goto(link)
      await page.waitForURL((url) => url.pathname === '/en/app')
      await page.getByRole('heading', { name: 'Create your first organization' }).waitFor()
      expect(await page.locator('html').getAttribute('lang')).toBe('en')
    })
  })

  it('sends a guarded page to sign-in and comes back to it after', async () => {
    await stack.withPage(async (page) => {
      await page.goto('/app/profile')
      await page.waitForURL((url) => url.pathname === '/sign-in')
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/app/profile')
      await stack.signInByCode(page, 'dominique@example.com')
      await page.waitForURL((url) => url.pathname === '/app/profile')
      await page.getByRole('heading', { name: 'Mon profil' }).waitFor()
    })
  })

  it('answers unknown pages and unknown language prefixes with the 404 page', async () => {
    await stack.withPage(async (page, context) => {
      await page.goto('/nulle-part')
      await page.getByRole('heading', { name: 'Page introuvable' }).waitFor()
      await page.goto('/en/nowhere')
      await page.getByRole('heading', { name: 'Page Not Found' }).waitFor()
      // The English page was remembered (locale cookie); a visitor without that memory gets French.
      await context.clearCookies()
      await page.goto('/de/app')
      await page.getByRole('heading', { name: 'Page introuvable' }).waitFor()
    })
  })

  it('edits the profile, switches language on the same page, and signs out', async () => {
    await stack.withPage(async (page, context) => {
      await stack.signInByCode(page, 'alex@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      await openAccountMenu(page)
      await page.getByRole('link', { name: 'Mon profil' }).first().click()
      await page.waitForURL('**/app/profile')
      await page.getByLabel('Prénom').fill('Alex')
      await page.getByLabel('Nom', { exact: true }).fill('Martin')
      await page.getByLabel('Téléphone', { exact: true }).fill('+33 6 12 34 56 78')
      await page.getByRole('button', { name: 'Enregistrer' }).click()
      await page.getByText('Votre profil a été mis à jour.').waitFor()
      await page.reload()
      expect(await page.getByLabel('Prénom').inputValue()).toBe('Alex')
      expect(await page.getByLabel('Téléphone', { exact: true }).inputValue()).toBe('+33 6 12 34 56 78')

      await openAccountMenu(page)
      await page.getByRole('link', { name: 'Passer en English' }).first().click()
      await page.waitForURL((url) => url.pathname === '/en/app/profile')
      await page.getByRole('heading', { name: 'My profile' }).waitFor()
      expect(await page.getByLabel('First name').inputValue()).toBe('Alex')
      const cookies = await context.cookies()
      const localeCookie = cookies.find((cookie) => cookie.name === 'locale')
      expect(localeCookie?.value).toBe('en')
      expect(localeCookie!.expires * 1000 - Date.now()).toBeGreaterThan(364 * 24 * 3600 * 1000)
      // The account now reads English, so its mail will be written in English.
      await expect
        .poll(
          async () => ((await (await page.request.get('/api/profile')).json()) as { locale: string }).locale,
        )
        .toBe('en')

      await openAccountMenu(page)
      await page.getByRole('button', { name: 'Sign out' }).first().click()
      await page.waitForURL((url) => url.pathname === '/en/sign-in')
      const profile = await page.request.get('/api/profile')
      expect(profile.status()).toBe(401)
      await page.goto('/en/app')
      await page.waitForURL((url) => url.pathname === '/en/sign-in')
    })
  })

  it('opens the app shell with the network off after a first visit', async () => {
    await stack.withPage(async (page, context) => {
      await stack.signInByCode(page, 'field@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
        if (!navigator.serviceWorker.controller) {
          await new Promise((resolve) =>
            navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
          )
        }
      })
      // A second visit, online: the profile is then in the persisted query cache of this browser, which is
      // what lets the installed app open signed in without network.
      await page.reload()
      await page.getByRole('navigation', { name: 'Menu principal' }).first().waitFor()
      await page.waitForFunction(() =>
        localStorage.getItem('trousseau-query-cache')?.includes('field@example.com'),
      )
      await context.setOffline(true)
      await page.goto('/app/profile')
      expect(pathOf(page)).toBe('/app/profile')
      await page.getByRole('navigation', { name: 'Menu principal' }).first().waitFor()
      await page.getByRole('heading', { name: 'Mon profil' }).waitFor()
      await context.setOffline(false)
    })
  })

  it('is installable: Chromium finds a complete manifest and a service worker', async () => {
    await stack.withPage(async (page, context) => {
      await page.goto('/')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      const cdp = await context.newCDPSession(page)
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
        installabilityErrors: Array<{ errorId: string }>
      }
      // A throw-away test profile is incognito to Chromium; anything else would block the install prompt.
      expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([])
      const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as {
        start_url: string
        display: string
        lang: string
        icons: Array<{ src: string; sizes: string; purpose: string }>
      }
      expect(manifest).toMatchObject({ start_url: '/app', display: 'standalone', lang: 'fr' })
      expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
        '192x192 any',
        '512x512 any',
        '512x512 maskable',
      ])
      for (const icon of manifest.icons) {
        const png = await (await page.request.get(icon.src)).body()
        const [width, height] = icon.sizes.split('x').map(Number)
        expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([width, height])
      }
    })
  })
})
