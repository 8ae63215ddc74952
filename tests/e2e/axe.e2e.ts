import { readFileSync } from 'node:fs'
import { and, eq } from 'drizzle-orm'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keychains, keys, orders, places, tags, transfers, users } from '../../server/db/schema.ts'
import { storeFoundReport } from '../../server/modules/found-reports/service.ts'
import { startStocktake } from '../../server/modules/stocktakes/start.ts'
import { DEMO_MEMBERS, DEMO_ORGANIZATION_ID, seedDemo } from '../../server/seed/demo.ts'
import { openAccountMenu } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { openInApp } from './in-app.ts'

// Every route of the app, light and dark, checked by axe-core (issue 23): public pages signed out, the app's
// routes signed in on the demo organization (scripts/seed.ts's data), at 1280×800.

const AXE_SOURCE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')
const ADMIN = DEMO_MEMBERS.find((member) => member.role === 'ADMIN')!.email
const CONTACT = DEMO_MEMBERS.find((member) => member.role === 'CONTACT')!.email

let stack: Stack
let routes: { public: string[]; admin: string[]; contact: string[] }

beforeAll(async () => {
  stack = await startStack()
  const { db } = stack.deps.database
  await seedDemo(stack.deps)
  const [onKeychain] = await db
    .select({ tagId: tags.id, publicId: tags.publicId, keychainId: keys.keychainId })
    .from(tags)
    .innerJoin(keys, eq(keys.tagId, tags.id))
    .where(eq(tags.organizationId, DEMO_ORGANIZATION_ID))
    .limit(1)
  const [order] = await db.select({ id: orders.id }).from(orders).limit(1)
  const [member] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, DEMO_MEMBERS.find((each) => each.role === 'MEMBER')!.email))
  const [scheduled] = await db
    .select({ id: transfers.id })
    .from(transfers)
    .innerJoin(users, eq(users.id, transfers.recipientId))
    .where(eq(users.email, CONTACT))
  const [keychain] = await db
    .select({ id: keychains.id })
    .from(keychains)
    .where(eq(keychains.id, onKeychain!.keychainId))
  const found = await storeFoundReport(db, {
    organizationId: DEMO_ORGANIZATION_ID,
    tagId: onKeychain!.tagId,
    message: 'Found on a bench near the fountain.',
    contact: 'finder@example.com',
    locale: 'fr',
    now: stack.deps.clock.now(),
  })
  const [board] = await db
    .select({ id: places.id })
    .from(places)
    .where(and(eq(places.organizationId, DEMO_ORGANIZATION_ID), eq(places.kind, 'BOARD')))
    .limit(1)
  const [adminUser] = await db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN))
  const stocktake = await startStocktake(stack.deps, {
    organizationId: DEMO_ORGANIZATION_ID,
    actorId: adminUser!.id,
    placeId: board!.id,
  })
  const tagPage = `/tags/${onKeychain!.publicId}`
  const organization = `/app/organizations/${DEMO_ORGANIZATION_ID}`
  routes = {
    // French first: the English pages make the locale cookie English.
    public: ['/', '/sign-in', tagPage, '/en', '/en/sign-in', `/en${tagPage}`],
    admin: [
      '/app',
      '/app/scan',
      '/app/sync',
      '/app/keychains',
      '/app/keychains/new',
      '/app/keychains/import',
      `/app/keychains/${keychain!.id}`,
      `/app/keychains/${keychain!.id}/create-transfer`,
      '/app/transfers',
      '/app/transfers/new',
      '/app/transfers/requests',
      '/app/orders',
      `/app/orders/${order!.id}`,
      '/app/order-result',
      '/app/order-result/success',
      '/app/order-result/cancel',
      '/app/organizations',
      '/app/organizations/new',
      organization,
      `${organization}/new-order`,
      `${organization}/_new-order`,
      '/app/plans',
      '/app/profile',
      '/app/users',
      `/app/users/${member!.id}`,
      '/app/activity',
      '/app/reports',
      '/app/reports/holdings',
      '/app/reports/overdue',
      '/app/reports/unseen',
      '/app/reports/monthly',
      '/app/found-reports',
      `/app/found-reports/${found.id}`,
      '/app/webhooks',
      '/app/tags',
      '/app/places',
      `/app/places/${board!.id}`,
      '/app/stocktakes',
      `/app/stocktakes/${stocktake.id}`,
      '/app/handover',
      `/app/handover/${keychain!.id}`,
      '/app/handovers',
      '/tags',
      tagPage,
      // Last: the English page makes the locale cookie English for what follows.
      '/en/app',
    ],
    contact: ['/app/transfers/requests', `/app/transfers/requests/${scheduled!.id}`],
  }
})

afterAll(async () => {
  console.log(summary.join('\n'))
  await stack?.stop()
})

type Violation = { id: string; impact: string | null; nodes: Array<{ target: string[] }> }

/** What axe checked on each page: its address once settled, rules passed and broken (printed at the end). */
const summary: string[] = []

/** axe's violations on the page as it is, one line each: rule, impact, the first elements it names. */
async function violationsOf(page: Page): Promise<string[]> {
  // Loaded once per document: in-app navigation keeps it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE)
  const results = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: { resultTypes: string[] },
          ) => Promise<{ violations: Violation[]; passes: unknown[] }>
        }
      }
    ).axe
    // Every rule still runs; only the violations carry all their elements (a pass names one), which spares
    // axe building a selector for every element that passed (most of its time on a long page).
    const { violations, passes } = await axe.run(document, { resultTypes: ['violations'] })
    return { violations, passes: passes.length }
  })
  summary.push(
    `${new URL(page.url()).pathname}: ${results.passes} rules passed, ${results.violations.length} broken`,
  )
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.nodes
        .slice(0, 3)
        .map((node) => node.target.join(' '))
        .join(', ')}${violation.nodes.length > 3 ? ` and ${violation.nodes.length - 3} more` : ''}`,
  )
}

const THEMES = ['light', 'dark'] as const

/**
 * Opens each route as a link in the app would and lets it settle (its heading shown, no request pending), then
 * asks axe in the light theme, then in the dark one: the system's theme changes under the shown page, which
 * follows it.
 */
async function checkRoutes(page: Page, paths: string[], found: Record<string, string[]>) {
  for (const path of paths) {
    await page.emulateMedia({ colorScheme: 'light' })
    await openInApp(page, path)
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme })
      await expect
        .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')), {
          message: `${path} is ${theme}`,
        })
        .toBe(theme === 'dark')
      // Colours that change with the theme may be mid-transition: axe reads the settled ones.
      await page.waitForFunction(() =>
        document.getAnimations().every((animation) => animation.playState !== 'running'),
      )
      const violations = await violationsOf(page)
      if (violations.length > 0) found[`${theme} ${path}`] = violations
    }
  }
}

async function newContext(): Promise<BrowserContext> {
  return stack.browser.newContext({ baseURL: stack.baseUrl, viewport: { width: 1280, height: 800 } })
}

/** The page's refusals by the Content-Security-Policy (the head's inline theme script must not be one). */
function watchPolicy(page: Page): string[] {
  const refused: string[] = []
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text())
  })
  return refused
}

describe('axe on every route (issue 23)', () => {
  it('is really asked: an image without a text alternative and grey on grey are reported', async () => {
    await stack.withPage(async (page) => {
      await page.goto('/')
      await page.getByRole('heading', { level: 1 }).waitFor()
      await page.evaluate(() => {
        const image = document.createElement('img')
        image.src = '/favicon.svg'
        const faint = document.createElement('p')
        faint.textContent = 'Faint'
        faint.style.cssText = 'color:#aaa;background:#bbb'
        document.querySelector('main')?.append(image, faint)
      })
      const violations = await violationsOf(page)
      expect(violations.map((line) => line.split(' ')[0])).toEqual(
        expect.arrayContaining(['image-alt', 'color-contrast']),
      )
      summary.pop()
    })
  })

  it('reports no violation, light and dark (the system’s theme)', { timeout: 600_000 }, async () => {
    const found: Record<string, string[]> = {}
    const context = await newContext()
    try {
      const page = await context.newPage()
      const refused = watchPolicy(page)
      await checkRoutes(page, routes.public, found)
      // The English pages remembered English (locale cookie): the app is checked in French.
      await context.clearCookies()
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await checkRoutes(page, routes.admin, found)
      // The account menu and the shortcuts dialog, open (in English: the last page was), in both themes.
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme })
        await page.goto('/en/app')
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        await openAccountMenu(page)
        const menu = await violationsOf(page)
        if (menu.length > 0) found[`${theme} /en/app (account menu)`] = menu
        await page.keyboard.press('Escape')
        await page.locator('html[data-shortcuts="on"]').waitFor({ state: 'attached' })
        await page.keyboard.press('?')
        await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor()
        const dialog = await violationsOf(page)
        if (dialog.length > 0) found[`${theme} /en/app (shortcuts)`] = dialog
      }
      expect(refused).toEqual([])
    } finally {
      await context.close()
    }
    const contact = await newContext()
    try {
      const page = await contact.newPage()
      await stack.signIn(page, CONTACT)
      await page.waitForURL((url) => url.pathname.startsWith('/app'))
      await checkRoutes(page, routes.contact, found)
    } finally {
      await contact.close()
    }
    expect(found).toEqual({})
  })
})
