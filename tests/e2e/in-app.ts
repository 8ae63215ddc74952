import type { Page, Request } from 'playwright-core'

/**
 * Opens `path` the way a link inside the app does: the router follows a history entry pushed in the page (no
 * reload, no new boot of the app), as a click on a menu link would. Paths outside the signed-in app, or from a
 * page that is not in it, are loaded in full. Resolves once the new screen's heading is shown and no request
 * has been in flight for a moment (Playwright's `networkidle` waits half a second after every load).
 */
export async function openInApp(page: Page, path: string): Promise<void> {
  const here = new URL(page.url())
  const inApp = (pathname: string) => /^(\/en)?\/app(\/|$)/.test(pathname)
  const sameLocale = here.pathname.startsWith('/en/') === path.startsWith('/en/')
  await settleAfter(page, async () => {
    if (!inApp(here.pathname) || !inApp(path) || !sameLocale) {
      await page.goto(path)
      await page.getByRole('heading', { level: 1 }).first().waitFor()
      return
    }
    const target = new URL(path, here)
    if (here.pathname + here.search === target.pathname + target.search) return
    // The screen being left is marked: its heading must not be taken for the new screen's.
    await page.evaluate((to) => {
      for (const heading of document.querySelectorAll('h1')) heading.setAttribute('data-left', '')
      history.pushState(null, '', to)
      dispatchEvent(new PopStateEvent('popstate'))
    }, path)
    await page.waitForURL((url) => url.pathname + url.search === target.pathname + target.search)
    await page.locator('h1:not([data-left])').first().waitFor()
  })
}

/** Runs `action`, then waits until no request of the page has been in flight for `quietMs`. */
async function settleAfter(page: Page, action: () => Promise<void>, quietMs = 150): Promise<void> {
  const inFlight = new Set<Request>()
  const started = (request: Request) => inFlight.add(request)
  const ended = (request: Request) => inFlight.delete(request)
  page.on('request', started)
  page.on('requestfinished', ended)
  page.on('requestfailed', ended)
  try {
    await action()
    let quietSince = Date.now()
    const deadline = Date.now() + 30_000
    while (Date.now() - quietSince < quietMs) {
      if (Date.now() > deadline) throw new Error(`Requests still in flight on ${page.url()}`)
      await page.waitForTimeout(25)
      if (inFlight.size > 0) quietSince = Date.now()
    }
  } finally {
    page.off('request', started)
    page.off('requestfinished', ended)
    page.off('requestfailed', ended)
  }
}
