import { readFileSync } from 'node:fs'
import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import type { BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Role } from '../../contract/permissions.ts'
import { users } from '../../server/db/schema.ts'
import { addKey } from '../../server/modules/keychains/keys.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { createOrganization, selectOrganization } from '../../server/modules/organizations/service.ts'
import { recordPickup } from '../../server/modules/transfers/pickups.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { saveFailure } from './failure.ts'
import { type Stack, startStack } from './harness.ts'
import { storedTags } from './mirror.ts'

// Issue 23, the field under one thumb: after a typed scan at 360×740, the result's main action lies inside the
// viewport (online, and offline with the banner shown), for each role that can act; the card states one line of
// truth from the answer, and never who holds a keychain to someone who may not see it.

let stack: Stack
const VIEWPORT = { width: 360, height: 740 }
const PEOPLE: Record<Role, { email: string; name: string }> = {
  ADMIN: { email: 'ada.admin@pouce.example.com', name: 'Ada' },
  MANAGER: { email: 'malo.manager@pouce.example.com', name: 'Malo' },
  MEMBER: { email: 'mia.member@pouce.example.com', name: 'Mia' },
  CONTACT: { email: 'cyril.contact@pouce.example.com', name: 'Cyril' },
}
const ROLES = ['ADMIN', 'MANAGER', 'MEMBER', 'CONTACT'] as const
/** Tag codes: a free keychain, one pickup waiting for each role, one keychain out with the CONTACT. */
const code: { free: string; out: string; pickup: Record<Role, string> } = {
  free: '',
  out: '',
  pickup: { ADMIN: '', MANAGER: '', MEMBER: '', CONTACT: '' },
}
const PICKUP_NAMES: Record<Role, string> = {
  ADMIN: 'Retrait Ada',
  MANAGER: 'Retrait Malo',
  MEMBER: 'Retrait Mia',
  CONTACT: 'Retrait Cyril',
}
let fromDate = ''
let toDate = ''
let pickedUpAt = new Date()
const measured: string[] = []

beforeAll(async () => {
  stack = await startStack()
  const { deps } = stack
  const admin = await signInUser(deps, PEOPLE.ADMIN.email, 'fr')
  await deps.database.db.update(users).set({ firstName: 'Ada' }).where(eq(users.id, admin.id))
  const organization = await createOrganization(deps, admin, {
    name: 'Régie du Pouce',
    address: { line1: '3 rue du Doigt', city: 'Lyon', postalCode: '69001', country: 'FR' },
  })
  await stack.subscribe(organization.id)
  const ids: Record<Role, string> = { ADMIN: admin.id, MANAGER: '', MEMBER: '', CONTACT: '' }
  for (const role of ['MANAGER', 'MEMBER', 'CONTACT'] as const) {
    ids[role] = await stack.addMember(organization.id, PEOPLE[role].email, role, PEOPLE[role].name)
    await selectOrganization(deps.database.db, ids[role], organization.id)
  }
  const tags = await stack.createTags(organization.id, { alphaCode: 'PCE', count: 6, name: 'Pouce' })
  const keychainWith = async (name: string, tagIndex: number, custodianId: string | null) => {
    const keychain = await createKeychain(deps, {
      organizationId: organization.id,
      actorId: admin.id,
      keychain: { name, custodianId },
    })
    await addKey(deps, {
      organizationId: organization.id,
      keychainId: keychain.id,
      key: { type: 'TAG', name: 'Tag', tagId: tags[tagIndex]!.id },
    })
    return keychain.id
  }
  fromDate = today('Europe/Paris').toString()
  toDate = today('Europe/Paris').add({ days: 2 }).toString()
  const [adminRow] = await deps.database.db.select().from(users).where(eq(users.id, admin.id))
  const authorize = (keychainId: string, userId: string) =>
    createTransfer(deps, {
      organizationId: organization.id,
      actor: adminRow!,
      keychainId,
      transfer: { recipient: { kind: 'member', userId }, fromDate, toDate },
    })

  await keychainWith('Local vélos', 0, null)
  code.free = tags[0]!.code
  for (const [index, role] of ROLES.entries()) {
    // The CONTACT's keychain is held by the manager: the contact may not be told so.
    const keychainId = await keychainWith(
      PICKUP_NAMES[role],
      index + 1,
      role === 'CONTACT' ? ids.MANAGER : null,
    )
    await authorize(keychainId, ids[role])
    code.pickup[role] = tags[index + 1]!.code
  }
  const outId = await keychainWith('Cave Cyril', 5, null)
  const out = await authorize(outId, ids.CONTACT)
  const [contactRow] = await deps.database.db.select().from(users).where(eq(users.id, ids.CONTACT))
  pickedUpAt = deps.clock.now()
  await deps.database.db.transaction((tx) =>
    recordPickup(tx, {
      caller: contactRow!,
      transferId: out.id,
      clientTime: null,
      fromQueue: false,
      now: pickedUpAt,
    }),
  )
  code.out = tags[5]!.code
})

afterAll(async () => {
  console.log(`Primary action boxes at 360×740:\n${measured.join('\n')}`)
  await stack?.stop()
})

/** A short French day as the card writes it ("29 nov."), with its year when it is not this year. */
function shortDay(value: Date | string): string {
  const calendar = typeof value === 'string'
  const date = calendar ? new Date(`${value}T00:00:00Z`) : value
  const year = calendar ? date.getUTCFullYear() : date.getFullYear()
  return new Intl.DateTimeFormat('fr-FR', {
    day: 'numeric',
    month: 'short',
    ...(year === new Date().getFullYear() ? {} : { year: 'numeric' }),
    ...(calendar ? { timeZone: 'UTC' } : {}),
  }).format(date)
}

/** A phone context signed in as `role`, on the scan screen once the device's copy holds `tags` tags. */
async function onPhone<T>(
  role: Role,
  tags: number,
  run: (page: Page, context: BrowserContext) => Promise<T>,
) {
  const context = await stack.newPhoneContext()
  const page = await context.newPage()
  const log: string[] = []
  page.on('console', (message) => log.push(`${message.type()}: ${message.text()}`))
  try {
    await stack.signIn(page, PEOPLE[role].email)
    await page.waitForURL((url) => url.pathname === '/app')
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready
    })
    await expect.poll(async () => (await storedTags(page)).length, { timeout: 15_000 }).toBe(tags)
    await page.goto('/app/scan')
    await page.getByLabel("Code ou lien de l'étiquette").waitFor()
    return await run(page, context)
  } catch (error) {
    await saveFailure(page, log)
    throw error
  } finally {
    await context.close()
  }
}

/** Types a code into the scan field and presses Enter, as a hardware scanner does; the sheet opens on it. */
async function scan(page: Page, value: string, keychain: string) {
  const next = page.getByRole('button', { name: 'Scanner l’étiquette suivante' })
  if (await next.isVisible()) {
    // Dismissed, the sheet hands the focus back to the scan field.
    await next.click()
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('scan-value')
  }
  await page.getByLabel("Code ou lien de l'étiquette").fill(value)
  await page.keyboard.press('Enter')
  const heading = page.getByRole('region', { name: 'Résultat du scan' }).getByRole('heading', {
    level: 2,
    name: keychain,
  })
  await heading.waitFor()
  // The focus moved to the result.
  await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true)
}

type Box = { x: number; y: number; width: number; height: number }

/** The action's box lies inside the 360×740 viewport, and the action itself is what a thumb there hits. */
async function expectUnderThumb(page: Page, action: Locator, label: string): Promise<Box> {
  await action.waitFor()
  const box = (await action.boundingBox()) as Box
  measured.push(
    `${label}: x ${Math.round(box.x)}, y ${Math.round(box.y)}, ${Math.round(box.width)}×${Math.round(box.height)} (bottom ${Math.round(box.y + box.height)})`,
  )
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.y).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(VIEWPORT.width)
  expect(box.y + box.height).toBeLessThanOrEqual(VIEWPORT.height)
  const hit = await action.evaluate(
    (element, at) => {
      const found = document.elementFromPoint(at.x, at.y)
      return found !== null && (found === element || element.contains(found))
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  )
  expect(hit).toBe(true)
  // Nothing was scrolled to get there.
  expect(await page.evaluate(() => window.scrollY)).toBe(0)
  return box
}

const AXE_SOURCE = readFileSync(new URL('../../node_modules/axe-core/axe.min.js', import.meta.url), 'utf8')

/** axe-core's violations inside the result sheet, light then dark (rule: the elements it names). */
async function sheetViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE)
  const found: string[] = []
  for (const dark of [false, true]) {
    const violations = await page.evaluate(async (isDark) => {
      document.documentElement.classList.toggle('dark', isDark)
      // Colours change with a transition (buttons): measured once it is over.
      await new Promise((done) => setTimeout(done, 400))
      const { axe } = window as unknown as {
        axe: {
          run: (context: Element) => Promise<{
            violations: { id: string; nodes: { target: string[]; failureSummary?: string }[] }[]
          }>
        }
      }
      const { violations } = await axe.run(document.querySelector('[data-scan-sheet]')!)
      return violations.map(
        (each) =>
          `${each.id}: ${each.nodes.map((node) => `${node.target.join(' ')} (${node.failureSummary ?? ''})`).join(', ')}`,
      )
    }, dark)
    found.push(...violations.map((line) => `${dark ? 'dark' : 'light'} ${line}`))
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'))
  return found
}

const truthOf = (page: Page) => page.locator('[data-scan-truth]').textContent()
const pickupButton = (page: Page) => page.getByRole('button', { name: 'Confirmer le retrait' })
const returnButton = (page: Page) => page.getByRole('button', { name: 'Confirmer le retour' })

describe('the scan result under the thumb at 360×740 (issue 23)', () => {
  it.each(['ADMIN', 'MANAGER', 'MEMBER'] as const)(
    'as %s: the pickup and the return lie in the viewport, online and offline with the banner',
    async (role) => {
      await onPhone(role, 6, async (page, context) => {
        // The scan field's example carries the organization's own prefix.
        await expect
          .poll(() => page.getByLabel("Code ou lien de l'étiquette").getAttribute('placeholder'))
          .toBe('PCE-00042')
        await scan(page, code.pickup[role], PICKUP_NAMES[role])
        await expectUnderThumb(page, pickupButton(page), `${role} online, pickup`)
        expect(await truthOf(page)).toBe('Libre')
        // The key's name ("Tag") says nothing: no "Key:" line.
        expect(await page.getByRole('region', { name: 'Résultat du scan' }).textContent()).not.toContain(
          'Clé :',
        )
        await scan(page, code.out, 'Cave Cyril')
        await expectUnderThumb(page, returnButton(page), `${role} online, return`)
        // Held by someone else, as a member may see it.
        expect(await truthOf(page)).toBe(
          `Chez Cyril depuis le ${shortDay(pickedUpAt)}, à rendre le ${shortDay(toDate)}`,
        )
        // axe finds nothing in the sheet, light and dark (online here, offline below with its notice).
        if (role === 'MANAGER') expect(await sheetViolations(page)).toEqual([])

        await context.setOffline(true)
        await page.reload()
        await page.getByTestId('offline-banner').waitFor()
        await expect
          .poll(() => page.getByLabel("Code ou lien de l'étiquette").getAttribute('placeholder'))
          .toBe('PCE-00042')
        await scan(page, code.pickup[role], PICKUP_NAMES[role])
        await page.getByText('Hors ligne : le scan est gardé sur cet appareil', { exact: false }).waitFor()
        await expectUnderThumb(page, pickupButton(page), `${role} offline, pickup`)
        await scan(page, code.out, 'Cave Cyril')
        await expectUnderThumb(page, returnButton(page), `${role} offline, return`)
        // A free keychain, offline (online the scan opens its page).
        await scan(page, code.free, 'Local vélos')
        expect(await truthOf(page)).toBe('Libre')
        expect(await page.getByTestId('offline-banner').isVisible()).toBe(true)
        if (role === 'MANAGER') {
          await scan(page, code.out, 'Cave Cyril')
          expect(await sheetViolations(page)).toEqual([])
        }
      })
    },
  )

  it('as CONTACT: the pickup lies in the viewport; the card says what is theirs, never who holds the rest', async () => {
    await onPhone('CONTACT', 2, async (page, context) => {
      await scan(page, code.pickup.CONTACT, PICKUP_NAMES.CONTACT)
      await expectUnderThumb(page, pickupButton(page), 'CONTACT online, pickup')
      // The manager holds this keychain: a contact may not be told, nor that nobody does.
      expect(await truthOf(page)).toBe(`À retirer par vous, du ${shortDay(fromDate)} au ${shortDay(toDate)}`)
      const sheet = page.getByRole('region', { name: 'Résultat du scan' })
      expect(await sheet.textContent()).not.toMatch(/Malo|Libre|personne|Détenu/i)
      // The keychain the contact holds: with them, due back on the to-date.
      await scan(page, code.out, 'Cave Cyril')
      expect(await truthOf(page)).toBe(`Chez vous, à rendre le ${shortDay(toDate)}`)

      await context.setOffline(true)
      await page.reload()
      await page.getByTestId('offline-banner').waitFor()
      await scan(page, code.pickup.CONTACT, PICKUP_NAMES.CONTACT)
      await expectUnderThumb(page, pickupButton(page), 'CONTACT offline, pickup')
      expect(await truthOf(page)).toBe(`À retirer par vous, du ${shortDay(fromDate)} au ${shortDay(toDate)}`)
      expect(await sheet.textContent()).not.toMatch(/Malo|Libre|personne|Détenu/i)
      await scan(page, code.out, 'Cave Cyril')
      expect(await truthOf(page)).toBe(`Chez vous, à rendre le ${shortDay(toDate)}`)
    })
  })

  it('dismisses the sheet with Escape, and the scan field takes the next code', async () => {
    await onPhone('MEMBER', 6, async (page) => {
      await scan(page, code.pickup.MEMBER, PICKUP_NAMES.MEMBER)
      await page.keyboard.press('Escape')
      await page.getByRole('region', { name: 'Résultat du scan' }).waitFor({ state: 'detached' })
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('scan-value')
      // A hardware scanner typing while the result has the focus still reaches the scan field.
      await page.keyboard.type(code.out)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Cave Cyril' }).waitFor()
      await page.keyboard.type(code.pickup.MEMBER)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: PICKUP_NAMES.MEMBER }).waitFor()
    })
  })
})
