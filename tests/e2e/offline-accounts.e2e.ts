import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferPickups, transfers, users } from '../../server/db/schema.ts'
import { createOrganization } from '../../server/modules/organizations/service.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { openAccountMenu, showSyncStatus } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows, storedTags } from './mirror.ts'

let stack: Stack
const ADMIN = 'ines.bureau@example.com'
const CONTACT = 'lea.plombiere@example.com'
const OTHER = 'marc.ailleurs@example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** An organization with its admin, a plan, and one TAG keychain per name. */
async function organizationWith(adminEmail: string, name: string, keychains: string[], alphaCode: string) {
  const db = stack.deps.database.db
  const now = stack.deps.clock.now()
  const [admin] = await db
    .insert(users)
    .values({
      email: adminEmail,
      firstName: 'Admin',
      lastName: name,
      locale: 'fr',
      createdAt: now,
      lastSeenAt: now,
    })
    .returning()
  const organization = await createOrganization(stack.deps, admin!, {
    name,
    address: { line1: '8 rue des Caves', line2: '', city: 'Lyon', postalCode: '69001', country: 'FR' },
  })
  await stack.subscribe(organization.id)
  const tags = await stack.createTags(organization.id, { alphaCode, count: keychains.length, name: 'Cave' })
  const keychainIds: string[] = []
  for (const [index, keychain] of keychains.entries())
    keychainIds.push(await stack.createKeychainWithTag(organization.id, keychain, tags[index]!.id))
  return { admin: admin!, organizationId: organization.id, tags, keychainIds }
}

describe('field mode offline, per account', () => {
  it('lets a contact scan and pick up offline, then shows nothing of theirs to the next account', async () => {
    const { deps } = stack
    const db = deps.database.db
    const lyon = await organizationWith(ADMIN, 'Caves de Lyon', ['Cave Nord', 'Cave Sud'], 'LYN')
    await stack.addMember(lyon.organizationId, CONTACT, 'CONTACT', 'Léa')
    const [contact] = await db.select().from(users).where(eq(users.email, CONTACT))
    const transfer = await createTransfer(deps, {
      organizationId: lyon.organizationId,
      actor: lyon.admin,
      keychainId: lyon.keychainIds[0]!,
      transfer: {
        recipient: { kind: 'member', userId: contact!.id },
        fromDate: today('Europe/Paris').toString(),
        toDate: today('Europe/Paris').add({ days: 2 }).toString(),
      },
    })
    const elsewhere = await organizationWith(OTHER, 'Dépôt de Nantes', ['Réserve'], 'NTS')
    const [northTag, southTag] = lyon.tags

    await stack.withPage(async (page, context) => {
      await stack.signInByCode(page, CONTACT)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.getByRole('link', { name: /Demandes en cours/ }).waitFor()
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      // A contact may not list tags: the mirror knows the tags of the keychain transferred to them, no other.
      await expect
        .poll(async () => (await storedTags(page)).map((row) => row.code), { timeout: 15_000 })
        .toEqual([northTag!.code])

      await context.setOffline(true)
      await page.goto('/app/scan')
      await page.getByTestId('offline-banner').waitFor()
      await page.getByLabel("Code ou lien de l'étiquette").fill(northTag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Cave Nord' }).waitFor()
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      // The recipient accepts the keychain (the handover receipt): a typed name here.
      await page.getByLabel('Votre nom').fill('Reçu par le terrain')
      await page.getByRole('button', { name: 'Accepter et confirmer le retrait' }).click()
      await page.getByTestId('waiting-to-sync').waitFor()

      // A tag the device was never given is not claimed to be unknown to the organization.
      await page.getByLabel("Code ou lien de l'étiquette").fill(southTag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { name: 'Étiquette inconnue' }).waitFor()
      await page.getByText("n'est pas dans la copie de cet appareil", { exact: false }).waitFor()

      // The tag page and the dashboard answer from the device too.
      await page.goto(`/tags/${northTag!.publicId}`)
      await page.getByTestId('offline-banner').waitFor()
      // A contact may not read tags: as online, the page is the "found these keys?" one, nothing of the keys.
      await page.getByRole('heading', { name: 'Vous avez trouvé ces clés ?' }).waitFor()
      await page.getByText('Caves de Lyon').waitFor()
      expect(await page.getByText('Cave Nord').count()).toBe(0)
      await page.goto('/app')
      await page.getByTestId('offline-banner').waitFor()
      expect(await page.getByRole('link', { name: /Demandes en cours/ }).textContent()).toContain('1')

      // Back online: the pickup reaches the server once, as from the queue.
      await context.setOffline(false)
      const pickupsOf = () =>
        db.select().from(transferPickups).where(eq(transferPickups.transferId, transfer.id))
      await expect.poll(async () => (await pickupsOf()).length, { timeout: 30_000 }).toBe(1)
      await showSyncStatus(page)
      await expect.poll(() => page.getByTestId('waiting').count(), { timeout: 30_000 }).toBe(0)
      expect(await page.getByTestId('failed').count()).toBe(0)
      const pickups = await pickupsOf()
      expect(pickups).toHaveLength(1)
      expect(pickups[0]).toMatchObject({ kind: 'PICKUP', fromQueue: true })
      const [picked] = await db.select().from(transfers).where(eq(transfers.id, transfer.id))
      expect(picked?.status).toBe('TRANSFERRED')

      await page.getByTestId('last-sync').first().waitFor()

      // Signing out forgets the contact's mirror; the next account's holds only its own organization.
      await openAccountMenu(page)
      await page.getByRole('button', { name: 'Se déconnecter' }).first().click()
      await page.waitForURL((url) => url.pathname === '/sign-in' || url.pathname === '/')
      await expect.poll(async () => (await storedTags(page)).length).toBe(0)
      await expect.poll(async () => (await storedRows(page, 'transfers')).length).toBe(0)

      await stack.signInByCode(page, OTHER)
      await page.waitForURL((url) => url.pathname === '/app')
      await expect.poll(async () => (await storedRows(page, 'keychains')).length, { timeout: 15_000 }).toBe(1)
      await context.setOffline(true)
      await page.goto('/app/keychains')
      await page.getByTestId('offline-banner').waitFor()
      await page.getByRole('link', { name: 'Réserve' }).waitFor()
      expect(await page.getByText('Cave Nord').count()).toBe(0)
      await page.goto(`/tags/${northTag!.publicId}`)
      await page.getByText("L'étiquette n'a pas pu être chargée.", { exact: false }).waitFor()
      expect(await page.getByText('Caves de Lyon').count()).toBe(0)
      const stored = [
        ...(await storedTags(page)),
        ...(await storedRows(page, 'keychains')),
        ...(await storedRows(page, 'transfers')),
      ]
      expect(stored.every((row) => row.organizationId === elsewhere.organizationId)).toBe(true)
    })
  })
})
