import { today } from '@internationalized/date'
import { parse } from 'csv-parse/sync'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema.ts'
import { addKey } from '../../server/modules/keychains/keys.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { createOrganization } from '../../server/modules/organizations/service.ts'
import { recordPickup } from '../../server/modules/transfers/pickups.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { type Stack, startStack } from './harness.ts'

let stack: Stack
const ADMIN = 'ines.ledger@example.com'
const HOLDER = 'paul.ledger@example.com'
let holderId = ''
let flatId = ''
let cellarId = ''

/**
 * The admin made two keychains ("Appartement 12" and "Cave 3", each with its tag) and lent the flat's to Paul,
 * who picked it up: the ledger holds their creations, keys, the transfer and the pickup.
 */
beforeAll(async () => {
  stack = await startStack()
  const { deps } = stack
  const admin = await signInUser(deps, ADMIN, 'en')
  const organization = await createOrganization(deps, admin, {
    name: 'Régie du Ledger',
    address: { line1: '4 rue du Registre', city: 'Paris', postalCode: '75003', country: 'FR' },
  })
  await stack.subscribe(organization.id)
  holderId = await stack.addMember(organization.id, HOLDER, 'MEMBER', 'Paul')
  const tags = await stack.createTags(organization.id, { alphaCode: 'LED', count: 2, name: 'Ledger' })
  const keychain = async (name: string, tagId: string) => {
    const made = await createKeychain(deps, {
      organizationId: organization.id,
      actorId: admin.id,
      keychain: { name, custodianId: null },
    })
    await addKey(deps, {
      organizationId: organization.id,
      keychainId: made.id,
      actorId: admin.id,
      key: { type: 'TAG', name: 'Porte', tagId },
    })
    return made.id
  }
  flatId = await keychain('Appartement 12', tags[0]!.id)
  cellarId = await keychain('Cave 3', tags[1]!.id)
  const [adminRow] = await deps.database.db.select().from(users).where(eq(users.id, admin.id))
  const [holderRow] = await deps.database.db.select().from(users).where(eq(users.id, holderId))
  const lent = await createTransfer(deps, {
    organizationId: organization.id,
    actor: adminRow!,
    keychainId: flatId,
    transfer: {
      recipient: { kind: 'member', userId: holderId },
      fromDate: today('Europe/Paris').toString(),
      toDate: today('Europe/Paris').add({ days: 2 }).toString(),
    },
  })
  await deps.database.db.transaction((tx) =>
    recordPickup(tx, {
      caller: holderRow!,
      transferId: lent.id,
      clientTime: null,
      fromQueue: false,
      now: deps.clock.now(),
    }),
  )
})

afterAll(async () => {
  await stack?.stop()
})

describe('the activity log', () => {
  it('says what each entry concerned, narrows to a keychain and a person, and exports exactly that view', async () => {
    await stack.withPage(async (page) => {
      const untranslated: string[] = []
      page.on('console', (message) => {
        if (message.text().startsWith('Missing translation')) untranslated.push(message.text())
      })
      await stack.signIn(page, ADMIN, 'en')
      await page.waitForURL((url) => url.pathname === '/en/app')
      await page.goto('/en/app/activity')
      const list = page.getByRole('list', { name: 'Activity' })
      const pickup = list.getByRole('listitem').filter({ hasText: 'Picked up Appartement 12' })
      await pickup.waitFor()
      expect(await pickup.textContent()).toContain('Picked up Appartement 12: custody no one → Paul')
      expect(await list.getByRole('listitem').filter({ hasText: 'Created keychain Cave 3' }).count()).toBe(1)

      // The keychain named in the entry narrows the view to it, kept in the address, shown as a chip.
      await pickup.getByRole('link', { name: 'Appartement 12' }).click()
      await page.waitForURL((url) => url.searchParams.get('keychain') === flatId)
      await page.getByText('Keychain: Appartement 12').waitFor()
      await list
        .getByRole('listitem')
        .filter({ hasText: 'Authorized the transfer of Appartement 12' })
        .waitFor()
      const narrowed = await list.getByRole('listitem').allTextContents()
      expect(narrowed.length).toBeGreaterThanOrEqual(4)
      expect(narrowed.every((text) => text.includes('Appartement 12'))).toBe(true)
      expect(narrowed.some((text) => text.includes('Cave 3'))).toBe(false)

      // Then to what Paul did: the pickup alone.
      const who = page.getByLabel('Who')
      await who.locator('option', { hasText: 'Paul' }).waitFor({ state: 'attached' })
      await who.selectOption(holderId)
      await page.waitForURL(
        (url) => url.searchParams.get('person') === holderId && url.searchParams.get('keychain') === flatId,
      )
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1)
      expect(await list.getByRole('listitem').first().textContent()).toContain('Picked up Appartement 12')

      // The export link carries both filters, and its CSV holds that one row.
      const href = await page.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')
      const exported = new URL(href!, page.url())
      expect(exported.pathname).toBe('/api/activity/export')
      expect(exported.searchParams.get('keychain')).toBe(flatId)
      expect(exported.searchParams.get('person')).toBe(holderId)
      const response = await page.request.get(exported.toString())
      expect(response.status()).toBe(200)
      const rows = parse(await response.text(), { columns: true }) as Array<Record<string, string>>
      // The log's signed head is the last row of every export.
      expect(rows.map((row) => [row.kind, row.actor_email, row.keychain_ids, row.keychain_names])).toEqual([
        ['transfer.picked_up', HOLDER, flatId, 'Appartement 12'],
        ['ledger.signed_head', '', '', ''],
      ])

      // Removing the keychain's chip keeps the person: Paul's pickup still, and nothing of the cellar.
      await page.getByRole('button', { name: 'Remove the keychain filter' }).click()
      await page.waitForURL(
        (url) => !url.searchParams.has('keychain') && url.searchParams.get('person') === holderId,
      )
      const all = page.request.get(new URL('/api/activity/export', page.url()).toString())
      const everything = parse(await (await all).text(), { columns: true }) as Array<Record<string, string>>
      expect(everything.some((row) => row.keychain_ids === cellarId)).toBe(true)

      // The picker finds the cellar by part of its name: Paul never touched it, so nothing is left to show.
      await page.getByLabel('Keychain or tag').fill('Cave')
      await page
        .getByRole('list', { name: 'Keychains and tags found' })
        .getByRole('button', { name: 'Keychain: Cave 3' })
        .click()
      await page.waitForURL(
        (url) => url.searchParams.get('keychain') === cellarId && url.searchParams.get('person') === holderId,
      )
      await page.getByText('Keychain: Cave 3').waitFor()
      await page.getByText('Nothing happened in this view.').waitFor()
      expect(untranslated).toEqual([])
    })
  })
})
