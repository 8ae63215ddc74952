import { today } from '@internationalized/date'
import { and, eq } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scans, transferPickups, transfers, users } from '../../server/db/schema.ts'
import { cancelTransfer, createTransfer } from '../../server/modules/transfers/service.ts'
import { showSyncStatus } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows, storedTags } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'hugo.admin@example.com'
const FIELD = 'nora.terrain@example.com'

beforeAll(async () => {
  // On the embedded default (PGlite on disk): replayed scans land exactly once on the database `npm start` runs.
  stack = await startStack({}, { embedded: true })
  expect(stack.deps.database.driver).toBe('pglite')
})

afterAll(async () => {
  await stack?.stop()
})

async function scanOffline(page: Page, code: string, keychain: string) {
  await page.getByLabel("Code ou lien de l'étiquette").fill(code)
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 2, name: keychain }).waitFor()
  await page.getByText('Hors ligne : le scan est gardé sur cet appareil', { exact: false }).waitFor()
}

describe('field mode offline, with the network cut by the browser', () => {
  it('scans and picks up offline, keeps it across a reload, and sends each action exactly once', async () => {
    const { deps } = stack
    const db = deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Caves Oberkampf', {
      line1: '3 rue Oberkampf',
      postalCode: '75011',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const fieldId = await stack.addMember(organizationId, FIELD, 'MEMBER', 'Nora')
    const tags = await stack.createTags(organizationId, { alphaCode: 'OBK', count: 3, name: 'Cave' })
    const names = ['Cave A', 'Cave B', 'Cave C']
    const keychainIds: string[] = []
    for (const [index, tag] of tags.entries()) {
      keychainIds.push(await stack.createKeychainWithTag(organizationId, names[index]!, tag.id))
    }
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
    const authorize = (keychainId: string) =>
      createTransfer(deps, {
        organizationId,
        actor: admin!,
        keychainId,
        transfer: {
          recipient: { kind: 'member', userId: fieldId },
          fromDate: today('Europe/Paris').toString(),
          toDate: today('Europe/Paris').add({ days: 2 }).toString(),
        },
      })
    const kept = await authorize(keychainIds[0]!)
    const cancelledMeanwhile = await authorize(keychainIds[1]!)

    await stack.withPage(async (page, context) => {
      await stack.signIn(page, FIELD)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      // The background refresh fills the mirror with the organization's tags, keychains and transfers.
      await expect.poll(async () => (await storedTags(page)).length, { timeout: 15_000 }).toBe(3)
      await expect.poll(async () => (await storedRows(page, 'transfers')).length, { timeout: 15_000 }).toBe(2)
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").waitFor()

      await context.setOffline(true)
      await page.reload()
      await page.getByTestId('offline-banner').waitFor()

      // Three tags scanned; the two transferred keychains offer their pickup, confirmed provisionally.
      await scanOffline(page, tags[2]!.code, 'Cave C')
      await scanOffline(page, tags[0]!.code.toLowerCase(), 'Cave A')
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      // The recipient accepts the keychain (the handover receipt): a typed name here.
      await page.getByLabel('Votre nom').fill('Reçu par le terrain')
      await page.getByRole('button', { name: 'Accepter et confirmer le retrait' }).click()
      await page.getByTestId('waiting-to-sync').waitFor()
      await scanOffline(page, tags[1]!.code, 'Cave B')
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      // The recipient accepts the keychain (the handover receipt): a typed name here.
      await page.getByLabel('Votre nom').fill('Reçu par le terrain')
      await page.getByRole('button', { name: 'Accepter et confirmer le retrait' }).click()
      await page.getByTestId('waiting-to-sync').waitFor()
      await showSyncStatus(page)
      await expect.poll(() => page.getByTestId('waiting').textContent()).toBe("5 en attente d'envoi")

      // Field screens answer from the mirror without a network, without a reload: my requests and the list.
      await page.getByRole('link', { name: 'Demandes de transfert' }).first().click()
      await page.getByRole('list', { name: 'Transferts' }).getByText('Cave B').waitFor()
      await page.getByRole('link', { name: 'Transferts', exact: true }).first().click()
      await page.getByRole('list', { name: 'Transferts' }).getByText('Cave A').waitFor()
      await page.getByRole('link', { name: 'Scanner une étiquette' }).first().click()

      // The office cancels one of them while the device is offline; a reload offline keeps everything.
      await cancelTransfer(deps, { organizationId, actorId: admin!.id, id: cancelledMeanwhile.id })
      await page.reload()
      await page.getByTestId('offline-banner').waitFor()
      await showSyncStatus(page)
      await expect.poll(() => page.getByTestId('waiting').textContent()).toBe("5 en attente d'envoi")
      expect(await db.select().from(scans).where(eq(scans.organizationId, organizationId))).toHaveLength(0)

      // Back online: everything goes, in order, once; the cancelled transfer's pickup is kept as refused.
      await context.setOffline(false)
      await page.getByTestId('failed').waitFor({ timeout: 30_000 })
      await showSyncStatus(page)
      await expect.poll(() => page.getByTestId('waiting').count(), { timeout: 30_000 }).toBe(0)
      expect(await page.getByTestId('failed').textContent()).toBe('1 refusé')

      const recorded = await db.select().from(scans).where(eq(scans.organizationId, organizationId))
      expect(recorded).toHaveLength(3)
      expect(recorded.every((scan) => scan.fromQueue && scan.clientTime !== null)).toBe(true)
      const pickups = await db.select().from(transferPickups)
      const ours = pickups.filter(
        (row) => row.transferId === kept.id || row.transferId === cancelledMeanwhile.id,
      )
      expect(ours).toHaveLength(1)
      expect(ours[0]).toMatchObject({ transferId: kept.id, kind: 'PICKUP', fromQueue: true })
      const [transfer] = await db
        .select()
        .from(transfers)
        .where(and(eq(transfers.id, kept.id), eq(transfers.status, 'TRANSFERRED')))
      expect(transfer).toBeDefined()

      await page.getByRole('link', { name: /^État de la synchronisation/ }).click()
      await page.waitForURL((url) => url.pathname === '/app/sync')
      const refused = page.locator('li[data-status="failed"]')
      await refused.getByText('Ce transfert a été annulé.').waitFor()
      expect(await refused.textContent()).toContain('Cave B')
      await page.getByRole('button', { name: 'Abandonner' }).click()
      await expect.poll(() => page.locator('li[data-status="failed"]').count()).toBe(0)
    })
  })
})
