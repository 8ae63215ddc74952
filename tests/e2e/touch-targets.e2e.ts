import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createOrganization } from '../../server/modules/organizations/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { type Stack, startStack } from './harness.ts'

let stack: Stack
let tagCode = ''
const ADMIN = 'tom.touch@example.com'

beforeAll(async () => {
  stack = await startStack()
  const admin = await signInUser(stack.deps, ADMIN, 'fr')
  const organization = await createOrganization(stack.deps, admin, {
    name: 'Agence du Pouce',
    address: { line1: '3 rue du Doigt', city: 'Lyon', postalCode: '69001', country: 'FR' },
  })
  const [tag] = await stack.createTags(organization.id, { alphaCode: 'PCE', count: 2, name: 'Pouce' })
  await stack.createKeychainWithTag(organization.id, 'Cave 3', tag!.id)
  tagCode = tag!.code
})

afterAll(async () => {
  await stack?.stop()
})

const MIN = 44

/**
 * Every visible control of the page smaller than 44×44 CSS px. A link inside a sentence is exempt (WCAG 2.5.8's
 * inline exception); a checkbox or radio counts by its label, which is what a thumb hits.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate((min) => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"], [role="tab"], [role="switch"]'
    const small: string[] = []
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(element)
      if (style.visibility === 'hidden' || element.closest('[inert], [aria-hidden="true"]')) continue
      let box = element.getBoundingClientRect()
      // Nothing to hit: not laid out, or visually hidden until focused (the skip link).
      if (box.width <= 1 || box.height <= 1) continue
      if (element.tagName === 'A' && style.display === 'inline') continue
      const input = element as HTMLInputElement
      if (input.type === 'checkbox' || input.type === 'radio') {
        const label =
          element.closest('label') ?? (input.id ? document.querySelector(`label[for="${input.id}"]`) : null)
        if (label) box = label.getBoundingClientRect()
      }
      if (box.width + 0.5 < min || box.height + 0.5 < min) {
        const name = (element.getAttribute('aria-label') ?? element.textContent ?? input.name ?? '').trim()
        small.push(
          `${element.tagName.toLowerCase()} "${name.slice(0, 40)}" ${Math.round(box.width)}×${Math.round(box.height)}`,
        )
      }
    }
    return small
  }, MIN)
}

describe('touch targets on the phone routes (issue 23)', () => {
  it('gives every control of the field screens at least 44×44 CSS px at 360×740', async () => {
    const context = await stack.newPhoneContext()
    try {
      const page = await context.newPage()
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      const found: Record<string, string[]> = {}
      for (const path of ['/app', '/app/scan', '/app/transfers/requests', '/app/sync', '/app/keychains']) {
        await page.goto(path)
        await page.getByRole('heading', { level: 1 }).first().waitFor()
        await page.waitForLoadState('networkidle')
        found[path] = await smallTargets(page)
      }
      // The menu, opened.
      await page.getByRole('button', { name: 'Ouvrir le menu' }).click()
      await page.getByRole('navigation', { name: 'Menu principal' }).last().waitFor()
      found['/app (menu)'] = await smallTargets(page)
      // A scan's result card.
      await page.goto('/app/scan')
      await page.getByRole('textbox').first().fill(tagCode)
      await page.keyboard.press('Enter')
      await page.getByText('Cave 3').first().waitFor()
      found['/app/scan (result)'] = await smallTargets(page)
      expect(found).toEqual(Object.fromEntries(Object.keys(found).map((path) => [path, []])))
    } finally {
      await context.close()
    }
  })
})
