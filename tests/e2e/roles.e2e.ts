import type { Page, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../../contract/permissions.ts'
import { createOrganization, selectOrganization } from '../../server/modules/organizations/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { type Stack, startStack } from './harness.ts'
import { openInApp } from './in-app.ts'

let stack: Stack

const PEOPLE: Record<Role, string> = {
  ADMIN: 'agathe.admin@example.com',
  MANAGER: 'malo.manager@example.com',
  MEMBER: 'mia.member@example.com',
  CONTACT: 'cyril.contact@example.com',
}

beforeAll(async () => {
  stack = await startStack()
  const admin = await signInUser(stack.deps, PEOPLE.ADMIN, 'fr')
  const organization = await createOrganization(stack.deps, admin, {
    name: 'Régie des Lilas',
    address: { line1: '3 rue des Lilas', city: 'Paris', postalCode: '75019', country: 'FR' },
  })
  await stack.subscribe(organization.id)
  const [tag] = await stack.createTags(organization.id, { alphaCode: 'LIL', count: 1, name: 'Hall' })
  await stack.createKeychainWithTag(organization.id, 'Hall B', tag!.id)
  for (const role of ['MANAGER', 'MEMBER', 'CONTACT'] as const) {
    const userId = await stack.addMember(organization.id, PEOPLE[role], role)
    await selectOrganization(stack.deps.database.db, userId, organization.id)
  }
})

afterAll(async () => {
  await stack?.stop()
})

/** Every API answer the server refused (403) or failed (5xx) while `run` went on, as "status path". */
async function refusedDuring(page: Page, run: () => Promise<void>): Promise<string[]> {
  const refused: string[] = []
  const listen = (response: Response) => {
    const url = new URL(response.url())
    if (url.pathname.startsWith('/api/') && (response.status() === 403 || response.status() >= 500))
      refused.push(`${response.status()} ${response.request().method()} ${url.pathname}`)
  }
  page.on('response', listen)
  try {
    await run()
  } finally {
    page.off('response', listen)
  }
  return refused
}

/** The in-app addresses of the links of a region of the page (menu or dashboard). */
async function hrefsIn(page: Page, selector: string): Promise<string[]> {
  const hrefs = await page
    .locator(selector)
    .locator('a[href^="/"]')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''))
  return [...new Set(hrefs.filter((href) => href.startsWith('/app')))]
}

describe('every role reaches only screens it may use', () => {
  for (const role of ['ADMIN', 'MANAGER', 'MEMBER', 'CONTACT'] as const) {
    it(`${role}: every menu and dashboard link opens a screen that loads without a refused request, and plans are bought by admins only`, async () => {
      await stack.withPage(async (page) => {
        // Each module of the build carries its own texts (scripts/vite-inline-messages.ts): none may be missing.
        const untranslated: string[] = []
        page.on('console', (message) => {
          if (message.text().startsWith('Missing translation')) untranslated.push(message.text())
        })
        await stack.signIn(page, PEOPLE[role])
        await page.waitForURL((url) => url.pathname === '/app')
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        await page.waitForLoadState('networkidle')
        const links = [
          ...(await hrefsIn(page, 'nav[aria-label="Menu principal"]')),
          ...(await hrefsIn(page, 'main')),
        ]
        expect(links.length).toBeGreaterThan(2)
        const problems: string[] = []
        for (const href of new Set(links)) {
          const refused = await refusedDuring(page, () => openInApp(page, href))
          const failed = await page.getByRole('alert').filter({ hasText: 'Réessayer' }).count()
          if (refused.length > 0 || failed > 0)
            problems.push(
              `${href}: ${[...refused, failed ? 'an error with "retry" is shown' : ''].join(', ')}`,
            )
        }
        expect(problems).toEqual([])
        expect(untranslated).toEqual([])

        // Plans are shown to everyone; only those who may buy one are offered to choose or switch.
        const refused = await refusedDuring(page, () => openInApp(page, '/app/plans'))
        expect(refused).toEqual([])
        // With a plan already, the others read "Passer à …" (switch to).
        const choose = await page.getByRole('button', { name: /^(Choisir|Passer à) / }).count()
        if (role === 'ADMIN') expect(choose).toBeGreaterThan(0)
        else expect(choose, `${role} sees a plan choice`).toBe(0)
      })
    })
  }
})
