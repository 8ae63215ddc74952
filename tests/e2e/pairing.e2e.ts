import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { idempotencyKeys, keychains, keys, tags, users } from '../../server/db/schema.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows, storedTags } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const MANAGER = 'ines.manager@pairing.example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** The organization's keychains by name, with the codes of their tags. */
async function pairedKeychains(organizationId: string) {
  const rows = await stack.deps.database.db
    .select({ name: keychains.name, code: tags.code })
    .from(keychains)
    .leftJoin(keys, eq(keys.keychainId, keychains.id))
    .leftJoin(tags, eq(tags.id, keys.tagId))
    .where(eq(keychains.organizationId, organizationId))
  return rows.sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
}

describe('pairing free tags by scanning', () => {
  it('pairs 10 free tags to 10 new keychains with typed scans (two steps per tag), and one more offline, replayed once', async () => {
    const db = stack.deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, 'admin@pairing.example.com', 'Agence du Port')
    await stack.addMember(organizationId, MANAGER, 'MANAGER', 'Inès')
    const created = await stack.createTags(organizationId, { alphaCode: 'PAI', count: 11, name: 'Port' })

    await stack.withPage(async (page, context) => {
      await stack.signIn(page, MANAGER)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      // The device's copy knows the tags (for the pairing made offline below).
      await expect.poll(async () => (await storedTags(page)).length, { timeout: 15_000 }).toBe(11)

      await page.goto('/app/scan')
      await page.getByLabel('Session d’association').check()
      await page.getByLabel("Code ou lien de l'étiquette").click()
      let steps = 0
      for (const [index, tag] of created.slice(0, 10).entries()) {
        // Step 1: the scan (a hardware scanner types the code and presses Enter into the focused field).
        await page.keyboard.type(tag.code)
        await page.keyboard.press('Enter')
        steps += 1
        const name = page.getByLabel('Nom du nouveau trousseau')
        await name.waitFor()
        await expect.poll(() => name.evaluate((input) => input === document.activeElement)).toBe(true)
        // Step 2: the new keychain's name, then Enter.
        await page.keyboard.type(`Cave ${index + 1}`)
        await page.keyboard.press('Enter')
        steps += 1
        await page.locator(`[data-paired-count="${index + 1}"]`).waitFor()
        await page.locator(`[data-paired="${tag.code}"]`).waitFor()
        // Ready for the next scan: the scan field has the focus again.
        await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('scan-value')
      }
      expect(steps / 10).toBe(2)
      const online = await pairedKeychains(organizationId)
      expect(online).toEqual(
        created
          .slice(0, 10)
          .map((tag, index) => ({ name: `Cave ${index + 1}`, code: tag.code }))
          .sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true })),
      )

      // Offline: the pairing waits in the outbox and shows at once; back online it is sent once.
      await context.setOffline(true)
      const last = created[10]!
      await page.keyboard.type(last.code)
      await page.keyboard.press('Enter')
      await page.getByLabel('Nom du nouveau trousseau').waitFor()
      await page.keyboard.type('Cave 11')
      await page.keyboard.press('Enter')
      await page.locator('[data-paired-count="11"]').waitFor()
      await page.getByText('Gardé sur cet appareil : ce sera envoyé au retour du réseau.').waitFor()
      await page.getByText('(en attente de synchronisation)').waitFor()
      expect(await pairedKeychains(organizationId)).toHaveLength(10)
      // The keychain list (the device's copy, offline) shows it, marked as waiting: the only one.
      await page.getByRole('link', { name: 'Trousseaux' }).first().click()
      const list = page.getByRole('list', { name: 'Trousseaux' })
      const waitingRow = list
        .getByRole('listitem')
        .filter({ has: page.getByRole('link', { name: 'Cave 11', exact: true }) })
      await waitingRow.getByText('(en attente de synchronisation)').waitFor()
      await list.getByRole('link', { name: 'Cave 10', exact: true }).waitFor()
      expect(await list.getByText('(en attente de synchronisation)').count()).toBe(1)
      await context.setOffline(false)
      await expect
        .poll(async () => (await pairedKeychains(organizationId)).length, { timeout: 30_000 })
        .toBe(11)
      // Sent: the mark goes.
      await expect
        .poll(() => list.getByText('(en attente de synchronisation)').count(), { timeout: 15_000 })
        .toBe(0)
      const [manager] = await db.select().from(users).where(eq(users.email, MANAGER))
      const used = await db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, manager!.id))
      expect(used.filter((row) => row.request === 'POST /api/keychains')).toHaveLength(11)
      // The device's waiting keychain was replaced by the server's.
      await expect
        .poll(async () => (await storedRows(page, 'keychains')).filter((row) => row.waiting).length, {
          timeout: 15_000,
        })
        .toBe(0)
      // A later drain (another online event) sends nothing again.
      await page.evaluate(() => window.dispatchEvent(new Event('online')))
      await page.waitForTimeout(1000)
      const all = await pairedKeychains(organizationId)
      expect(all).toHaveLength(11)
      expect(all.filter((row) => row.name === 'Cave 11')).toEqual([{ name: 'Cave 11', code: last.code }])
    })
  })
})
