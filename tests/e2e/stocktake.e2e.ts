import { today } from '@internationalized/date'
import { eq, inArray } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  hooks,
  keychains,
  places,
  stocktakeDevices,
  stocktakeItems,
  stocktakeScans,
  users,
} from '../../server/db/schema.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { type Stack, startStack } from './harness.ts'
import { storedTags } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

// Issue 40's browser target: a board of 60 hooks with 55 keychains at home, counted by one person on a phone
// with the network cut (three misplaced, two missing, one from elsewhere), a reload half-way, then back online:
// the server's result is exactly that, every scan counted once.

let stack: Stack
const ADMIN = 'paule.stock@example.com'
const COUNTER = 'remi.inventaire@example.com'
const HOOKS = 60
const AT_HOME = 55

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

const code = (index: number) => `A-${String(index).padStart(2, '0')}`
/** A hook's label id: 16 base32 letters, the last two naming the hook. */
const publicIdOf = (index: number) =>
  `hookhookhookho${String.fromCharCode(97 + Math.floor(index / 26))}${String.fromCharCode(97 + (index % 26))}`

/** Types a value into the scan field as a hardware scanner would (the value, then Enter). */
async function scan(page: Page, value: string) {
  const field = page.getByLabel('Hook label or tag')
  await field.fill(value)
  await field.press('Enter')
}

async function figure(page: Page, label: string): Promise<string> {
  const term = page.locator('dt', { hasText: new RegExp(`^${label}$`) })
  return (
    (await page.getByTestId('tally').locator('div').filter({ has: term }).locator('dd').textContent()) ?? ''
  )
}

describe('a stocktake of a board, offline on a phone', () => {
  // 114 scans and a reload through the page, one after another: 40 s alone, more beside two other files.
  it('counts 60 hooks and their tags offline across a reload, then the server has exactly that', async () => {
    const db = stack.deps.database.db
    const now = stack.deps.clock.now()
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Agence du Port', {
      line1: '1 quai du Port',
      postalCode: '13002',
      city: 'Marseille',
    })
    await stack.addMember(organizationId, COUNTER, 'MEMBER', 'Rémi')
    const [site] = await db
      .insert(places)
      .values({ organizationId, kind: 'SITE', name: 'Agence', depth: 0, createdAt: now, updatedAt: now })
      .returning()
    const [board] = await db
      .insert(places)
      .values({
        organizationId,
        parentId: site!.id,
        kind: 'BOARD',
        name: 'Tableau A',
        depth: 1,
        publicId: 'tableauaaaaaaaaa',
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    const hookRows = await db
      .insert(hooks)
      .values(
        Array.from({ length: HOOKS }, (_, index) => ({
          organizationId,
          placeId: board!.id,
          code: code(index + 1),
          position: index + 1,
          publicId: publicIdOf(index + 1),
          createdAt: now,
        })),
      )
      .returning()
    const tags = await stack.createTags(organizationId, {
      alphaCode: 'PRT',
      count: AT_HOME + 1,
      name: 'Port',
    })
    const keychainIds: string[] = []
    for (const [index, tag] of tags.entries()) {
      keychainIds.push(await stack.createKeychainWithTag(organizationId, `Trousseau ${index + 1}`, tag.id))
    }
    // Keychains 1…55 live on hooks A-01…A-55; the 56th lives nowhere on this board.
    for (let index = 0; index < AT_HOME; index++) {
      await db
        .update(keychains)
        .set({ homeHookId: hookRows[index]!.id })
        .where(eq(keychains.id, keychainIds[index]!))
    }

    // The admin starts it from the stocktakes page.
    const stocktakeId = await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN, 'en')
      await page.waitForURL((url) => url.pathname === '/en/app')
      await page.goto('/en/app/stocktakes')
      await page.getByRole('combobox', { name: 'What to count' }).selectOption({ label: '— Tableau A' })
      await page.getByRole('button', { name: 'Start a stocktake' }).click()
      await page.waitForURL(/\/en\/app\/stocktakes\/[0-9a-f-]{36}$/)
      expect(await figure(page, 'Expected')).toBe('55')
      return page.url().split('/').at(-1)!
    })

    const context = await stack.newPhoneContext()
    const page = await context.newPage()
    try {
      await stack.signIn(page, COUNTER, 'en')
      await page.waitForURL((url) => url.pathname === '/en/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      // The field mirror knows every tag of the organization before the network goes.
      await expect.poll(async () => (await storedTags(page)).length, { timeout: 20_000 }).toBe(AT_HOME + 1)
      // The board's page tells the phone which hook each label names, offline too.
      const boardRead = page.waitForResponse((response) =>
        response.url().includes(`/api/places/${board!.id}`),
      )
      await page.goto(`/en/app/stocktakes/${stocktakeId}`)
      await page.getByLabel('Hook label or tag').waitFor()
      await boardRead
      await page.waitForLoadState('networkidle')

      await context.setOffline(true)
      // What hangs on each hook: A-01…A-03 empty (their keychains are on A-56…A-58), A-54 and A-55 empty
      // (missing), the keychain from elsewhere on empty.
      const onHook = (hook: number): number | null =>
        hook >= 4 && hook <= 53
          ? hook
          : hook >= 56 && hook <= 58
            ? hook - 55
            : hook === 59
              ? AT_HOME + 1
              : null
      let sent = 0
      for (let hook = 1; hook <= HOOKS; hook++) {
        await scan(page, `h:${publicIdOf(hook)}`)
        sent += 1
        const keychain = onHook(hook)
        if (keychain !== null) {
          await scan(page, tags[keychain - 1]!.code)
          sent += 1
        }
        if (hook === 30) {
          // Half-way, the page is reloaded (still offline): nothing counted so far is lost.
          await page.getByText(`${sent} scans of this device are not sent yet`).waitFor()
          await page.reload()
          await page.getByLabel('Hook label or tag').waitFor()
        }
      }
      await page.getByText(`${sent} scans of this device are not sent yet`).waitFor()
      expect(sent).toBe(HOOKS + 54)
      // Offline, the phone counts its own scans by the server's rules.
      expect(await figure(page, 'Found')).toBe('50')
      expect(await figure(page, 'Misplaced')).toBe('3')
      expect(await figure(page, 'To find')).toBe('2')
      expect(await figure(page, 'Unexpected')).toBe('1')
      expect(
        await db.select().from(stocktakeScans).where(eq(stocktakeScans.stocktakeId, stocktakeId)),
      ).toEqual([])

      await context.setOffline(false)
      await page
        .getByText('scans of this device are not sent yet')
        .waitFor({ state: 'detached', timeout: 60_000 })
      await expect.poll(() => figure(page, 'Found'), { timeout: 15_000 }).toBe('50')
    } finally {
      await context.close()
    }

    // The server's result: each scan once, the device's count matched, each keychain in its state.
    const received = await db.select().from(stocktakeScans).where(eq(stocktakeScans.stocktakeId, stocktakeId))
    expect(received).toHaveLength(HOOKS + 54)
    expect(new Set(received.map((row) => row.deviceSeq)).size).toBe(HOOKS + 54)
    const [device] = await db
      .select()
      .from(stocktakeDevices)
      .where(eq(stocktakeDevices.stocktakeId, stocktakeId))
    expect([device!.made, device!.received]).toEqual([HOOKS + 54, HOOKS + 54])
    const items = await db.select().from(stocktakeItems).where(eq(stocktakeItems.stocktakeId, stocktakeId))
    const stateOf = new Map(items.map((item) => [item.keychainId, item.state]))
    expect(items).toHaveLength(AT_HOME)
    expect(keychainIds.slice(3, 53).every((id) => stateOf.get(id) === 'FOUND')).toBe(true)
    expect(keychainIds.slice(0, 3).map((id) => stateOf.get(id))).toEqual([
      'MISPLACED',
      'MISPLACED',
      'MISPLACED',
    ])
    expect(keychainIds.slice(53, 55).map((id) => stateOf.get(id))).toEqual(['PENDING', 'PENDING'])
    const misplacedOn = await db
      .select({ code: hooks.code })
      .from(stocktakeItems)
      .innerJoin(hooks, eq(hooks.id, stocktakeItems.foundHookId))
      .where(inArray(stocktakeItems.keychainId, keychainIds.slice(0, 3)))
    expect(misplacedOn.map((row) => row.code).sort()).toEqual(['A-56', 'A-57', 'A-58'])
    expect(received.filter((row) => row.outcome === 'UNEXPECTED').map((row) => row.keychainId)).toEqual([
      keychainIds[AT_HOME],
    ])
  }, 150_000)
})

describe('putting a keychain back on its hook after a return', () => {
  it('records the hook it goes on: another than its home is misplaced, and a manager makes it its home', async () => {
    const { deps } = stack
    const db = deps.database.db
    const now = deps.clock.now()
    const admin = 'iris.retour@example.com'
    const member = 'theo.retrait@example.com'
    const organizationId = await organizationOfNewAdmin(stack, admin, 'Régie Rivoli', {
      line1: '2 rue de Rivoli',
      postalCode: '75004',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const memberId = await stack.addMember(organizationId, member, 'MEMBER', 'Théo')
    const [board] = await db
      .insert(places)
      .values({
        organizationId,
        kind: 'BOARD',
        name: 'Loge',
        depth: 0,
        publicId: 'logeaaaaaaaaaaaa',
        createdAt: now,
        updatedAt: now,
      })
      .returning()
    const [homeHook, otherHook] = await db
      .insert(hooks)
      .values(
        [1, 2].map((index) => ({
          organizationId,
          placeId: board!.id,
          code: code(index),
          position: index,
          publicId: publicIdOf(100 + index),
          createdAt: now,
        })),
      )
      .returning()
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'RIV', count: 1, name: 'Loge' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Loge du 2', tag!.id)
    await db.update(keychains).set({ homeHookId: homeHook!.id }).where(eq(keychains.id, keychainId))
    const [adminRow] = await db.select().from(users).where(eq(users.email, admin))
    await createTransfer(deps, {
      organizationId,
      actor: adminRow!,
      keychainId,
      transfer: {
        recipient: { kind: 'member', userId: memberId },
        fromDate: today('Europe/Paris').toString(),
        toDate: today('Europe/Paris').add({ days: 2 }).toString(),
      },
    })

    const scanTag = async (page: Page) => {
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('region', { name: 'Transfert' }).waitFor()
    }
    await stack.withPage(async (page) => {
      await stack.signIn(page, member)
      await page.waitForURL((url) => url.pathname === '/app')
      await scanTag(page)
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      await page.getByLabel('Votre nom').fill('Théo')
      await page.getByRole('button', { name: 'Accepter et confirmer le retrait' }).click()
      await page.getByText('Retrait confirmé.').waitFor()
      // Taken: it is on no hook any more.
      const [held] = await db.select().from(keychains).where(eq(keychains.id, keychainId))
      expect(held!.hookId).toBeNull()
    })

    await stack.withPage(async (page) => {
      await stack.signIn(page, admin)
      await page.waitForURL((url) => url.pathname === '/app')
      await scanTag(page)
      await page.getByRole('button', { name: 'Confirmer le retour' }).click()
      await page.getByText('Retour confirmé.').waitFor()
      const card = page.getByRole('region', { name: 'Le remettre sur son crochet' })
      await card.getByLabel('Étiquette du crochet où il va').fill(`h:${publicIdOf(102)}`)
      await card.getByRole('button', { name: 'Enregistrer' }).click()
      await card.getByText('Enregistré sur A-02 (Loge) ; son attache est A-01 (Loge).').waitFor()
      const [misplaced] = await db.select().from(keychains).where(eq(keychains.id, keychainId))
      expect([misplaced!.homeHookId, misplaced!.hookId]).toEqual([homeHook!.id, otherHook!.id])
      await card.getByRole('button', { name: 'Faire de A-02 son attache' }).click()
      await card.getByText('A-02 (Loge) est maintenant son attache.').waitFor()
      const [moved] = await db.select().from(keychains).where(eq(keychains.id, keychainId))
      expect([moved!.homeHookId, moved!.hookId]).toEqual([otherHook!.id, otherHook!.id])
    })
  })
})
