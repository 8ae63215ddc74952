import { readFileSync } from 'node:fs'
import type { Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Stack, startStack } from './harness.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** What the build decided (src/pwa/precache-split.ts): precached at install, and cached once a page is idle. */
function buildSplit() {
  const sw = readFileSync('dist/sw.js', 'utf8')
  const precached = new Set([...sw.matchAll(/\{url:"([^"]+)",revision:/g)].map((match) => `/${match[1]}`))
  const deferred = JSON.parse(
    readFileSync('dist/sw-deferred-list.js', 'utf8').match(/\[.*\]/)?.[0] ?? '[]',
  ) as string[]
  const manifest = JSON.parse(readFileSync('dist/.vite/manifest.json', 'utf8')) as Record<
    string,
    { file: string }
  >
  const chunkOf = (route: string) =>
    `/${manifest[`src/routes/{-$locale}/${route}?tsr-split=component---loader`]?.file}`
  return { precached, deferred, orders: chunkOf('app/orders/index.tsx'), scan: chunkOf('app/scan.tsx') }
}

/** Records every service-worker registration with how far the page had loaded at that moment. */
async function recordRegistrations(page: Page) {
  await page.addInitScript(() => {
    const log: Array<{ url: string; scope?: string; loadEventEnd: number; at: number }> = []
    Object.assign(window, { __registrations: log })
    const register = ServiceWorkerContainer.prototype.register
    ServiceWorkerContainer.prototype.register = function (url, options) {
      const navigation = performance.getEntriesByType('navigation')[0] as
        | PerformanceNavigationTiming
        | undefined
      log.push({
        url: String(url),
        scope: options?.scope,
        loadEventEnd: navigation?.loadEventEnd ?? 0,
        at: performance.now(),
      })
      return register.call(this, url, options)
    }
  })
}

const registrations = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          __registrations: Array<{ url: string; scope?: string; loadEventEnd: number; at: number }>
        }
      ).__registrations,
  )

async function controlled(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
      )
  })
}

describe('service worker: the shell and field routes first, the rest once the page is idle', () => {
  it('is registered only after the load event, from the prerendered pages and from the SPA alike', async () => {
    await stack.withPage(async (page) => {
      await recordRegistrations(page)
      for (const path of ['/', '/sign-in', '/app']) {
        await page.goto(path, { waitUntil: 'load' })
        await expect.poll(async () => (await registrations(page)).length, { timeout: 15_000 }).toBe(1)
        const [registration] = await registrations(page)
        expect(registration).toMatchObject({ url: '/sw.js', scope: '/' })
        expect(registration!.loadEventEnd).toBeGreaterThan(0)
        expect(registration!.at).toBeGreaterThanOrEqual(registration!.loadEventEnd)
      }
    })
  })

  it('offline after a first visit, office and field routes still load from the caches', async () => {
    const split = buildSplit()
    expect(split.precached.has(split.scan)).toBe(true)
    expect(split.precached.has(split.orders)).toBe(false)
    expect(split.deferred).toContain(split.orders)
    expect(split.deferred.some((file) => split.precached.has(file))).toBe(false)

    await stack.withPage(async (page, context) => {
      await stack.signIn(page, 'cellar@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      await controlled(page)
      // The page, once idle, asked the worker for the deferred files: they end up in their cache.
      await expect
        .poll(
          () =>
            page.evaluate(async () =>
              (await (await caches.open('trousseau-deferred')).keys()).map(
                (request) => new URL(request.url).pathname,
              ),
            ),
          { timeout: 30_000 },
        )
        .toEqual(expect.arrayContaining(split.deferred))

      await context.setOffline(true)
      const fromWorker: Response[] = []
      page.on('response', (response) => {
        if (response.url().endsWith(split.orders) || response.url().endsWith(split.scan))
          fromWorker.push(response)
      })
      // Inside the SPA, with no network: an office route (deferred) and a field route (precached).
      await page.getByRole('link', { name: 'Commandes' }).first().click()
      await page.waitForURL((url) => url.pathname === '/app/orders')
      await page.getByRole('heading', { level: 1, name: 'Commandes' }).waitFor()
      await page.getByRole('link', { name: 'Scanner une étiquette' }).first().click()
      await page.waitForURL((url) => url.pathname === '/app/scan')
      // This account has no organization yet: the scan page says so (its chunk came from the precache).
      await page.getByRole('heading', { name: 'Aucune organisation sélectionnée' }).waitFor()
      await expect.poll(() => fromWorker.length).toBe(2)
      expect(fromWorker.map((response) => new URL(response.url()).pathname).sort()).toEqual(
        [split.orders, split.scan].sort(),
      )
      expect(fromWorker.every((response) => response.fromServiceWorker())).toBe(true)

      // A cold start offline in English: the shell falls back to index.html, the office chunk comes from the cache.
      await page.goto('/en/app/orders')
      await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor()
      await context.setOffline(false)
    })
  })
})
