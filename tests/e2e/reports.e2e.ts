import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addKey } from '../../server/modules/keychains/keys.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { createOrganization } from '../../server/modules/organizations/service.ts'
import { signInUser } from '../../server/modules/users/service.ts'
import { type Stack, startStack } from './harness.ts'

let stack: Stack
const ADMIN = 'ines.admin@example.com'
let leaving = ''

/**
 * Léa is leaving: she holds "Atelier" (its tag and a metal key) and "Cave"; Marc holds "Loge", and "Hall" is
 * nobody's. Her departure report must list her two keychains and nothing else.
 */
beforeAll(async () => {
  stack = await startStack()
  const admin = await signInUser(stack.deps, ADMIN, 'fr')
  const organization = await createOrganization(stack.deps, admin, {
    name: 'Régie du Canal',
    address: { line1: '8 quai de Valmy', city: 'Paris', postalCode: '75010', country: 'FR' },
  })
  leaving = await stack.addMember(organization.id, 'lea.depart@example.com', 'MEMBER', 'Léa')
  const marc = await stack.addMember(organization.id, 'marc@example.com', 'MEMBER', 'Marc')
  const [atelierTag, cavetag, logeTag] = await stack.createTags(organization.id, {
    alphaCode: 'CAN',
    count: 3,
    name: 'Canal',
  })
  const keychain = async (name: string, custodianId: string | null, tagId: string) => {
    const made = await createKeychain(stack.deps, {
      organizationId: organization.id,
      actorId: admin.id,
      keychain: { name, custodianId },
    })
    await addKey(stack.deps, {
      organizationId: organization.id,
      keychainId: made.id,
      key: { type: 'TAG', name, tagId },
    })
    return made
  }
  const atelier = await keychain('Atelier', leaving, atelierTag!.id)
  await addKey(stack.deps, {
    organizationId: organization.id,
    keychainId: atelier.id,
    key: { type: 'KEY', name: 'Grille du fond' },
  })
  await keychain('Cave', leaving, cavetag!.id)
  await keychain('Loge', marc, logeTag!.id)
  await stack.createKeychainWithTag(
    organization.id,
    'Hall',
    (await stack.createTags(organization.id, { alphaCode: 'HAL', count: 1, name: 'Hall' }))[0]!.id,
  )
})

afterAll(async () => {
  await stack?.stop()
})

describe('the departure report', () => {
  it('opens from the menu, and lists exactly the keychains the person holds, with their keys', async () => {
    await stack.withPage(async (page) => {
      const untranslated: string[] = []
      page.on('console', (message) => {
        if (message.text().startsWith('Missing translation')) untranslated.push(message.text())
      })
      await stack.signIn(page, ADMIN, 'en')
      await page.waitForURL((url) => url.pathname === '/en/app')
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Reports' }).click()
      await page.getByRole('link', { name: 'Who holds what' }).click()
      await page.waitForURL((url) => url.pathname === '/en/app/reports/holdings')
      const picker = page.getByLabel('Person')
      await picker.locator('option', { hasText: 'Léa' }).waitFor({ state: 'attached' })
      await picker.selectOption(leaving)
      await page.waitForURL((url) => url.searchParams.get('person') === leaving)
      const held = page.getByRole('table', { name: 'Keychains held' })
      await held.waitFor()
      const rows = await held.locator('tbody tr').allTextContents()
      expect(rows).toHaveLength(2)
      expect(rows[0]).toMatch(/^Atelier.*Atelier \(CAN-\d{5}\).*Grille du fond \(Key\)/)
      expect(rows[1]).toMatch(/^Cave.*Cave \(CAN-\d{5}\)/)
      expect(await page.getByRole('heading', { name: 'What Léa holds' }).isVisible()).toBe(true)
      expect(await page.getByText('No transfer is open to them.').isVisible()).toBe(true)
      // Printed, the report alone shows: not the menu, the picker or the buttons.
      await page.emulateMedia({ media: 'print' })
      expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(false)
      expect(await page.getByRole('button', { name: 'Print' }).isVisible()).toBe(false)
      expect(await held.isVisible()).toBe(true)
      expect(untranslated).toEqual([])
    })
  })
})
