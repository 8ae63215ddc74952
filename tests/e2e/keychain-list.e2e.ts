// Issue 23 in a real browser: the keychain list in natural order, a tag code search that opens its keychain,
// and a soft deletion undone from its toast, the keychain back with its keys and tags.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keys } from '../../server/db/schema.ts'
import { addKey } from '../../server/modules/keychains/keys.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

async function keychainNamed(organizationId: string, actorId: string, name: string) {
  return createKeychain(stack.deps, { organizationId, actorId, keychain: { name, custodianId: null } })
}

describe('the keychain list in a real browser', () => {
  it('shows names in natural order: "Bureau 2" before "Bureau 10" and "Bureau 18"', async () => {
    const admin = 'nora.list@example.com'
    const organizationId = await organizationOfNewAdmin(stack, admin, 'Agence Ordre')
    const paul = await stack.addMember(organizationId, 'paul.list@example.com', 'MEMBER', 'Paul')
    for (const name of ['Bureau 18', 'bureau 2', 'Bureau 10', 'Atelier 3', 'Écurie']) {
      await keychainNamed(organizationId, paul, name)
    }
    await stack.withPage(async (page) => {
      await stack.signIn(page, admin)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/keychains')
      const list = page.getByRole('list', { name: 'Trousseaux' })
      await list.getByRole('link', { name: 'Écurie' }).waitFor()
      const shown = await list.getByRole('link').allTextContents()
      expect(shown).toEqual(['Atelier 3', 'bureau 2', 'Bureau 10', 'Bureau 18', 'Écurie'])
      // Each row says where it stands.
      expect(await list.getByText('Libre').count()).toBe(5)
    })
  })

  it('opens the keychain of a whole tag code typed in the search', async () => {
    const admin = 'omar.list@example.com'
    const organizationId = await organizationOfNewAdmin(stack, admin, 'Agence Code')
    const tags = await stack.createTags(organizationId, { alphaCode: 'LCS', count: 2, name: 'Porte' })
    await stack.createKeychainWithTag(organizationId, 'Cellier', tags[0]!.id)
    const wanted = await stack.createKeychainWithTag(organizationId, 'Grenier', tags[1]!.id)
    await stack.withPage(async (page) => {
      await stack.signIn(page, admin)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/keychains')
      await page.getByRole('list', { name: 'Trousseaux' }).getByRole('link', { name: 'Grenier' }).waitFor()
      await page
        .getByRole('searchbox', { name: 'Rechercher des trousseaux par nom, code d’étiquette ou détenteur' })
        .fill(tags[1]!.code.toLowerCase())
      await page.waitForURL((url) => url.pathname === `/app/keychains/${wanted}`)
      await page.getByRole('heading', { name: 'Grenier', level: 1 }).waitFor()
    })
  })

  it('deletes from the overflow menu, then the undo brings the keychain back with its keys and tags', async () => {
    const admin = 'paula.list@example.com'
    const organizationId = await organizationOfNewAdmin(stack, admin, 'Agence Retour')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'LUN', count: 1, name: 'Porte' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Remise 4', tag!.id)
    await addKey(stack.deps, { organizationId, keychainId, key: { type: 'KEY', name: 'Cadenas' } })
    const keysOf = () =>
      stack.deps.database.db.select().from(keys).where(eq(keys.keychainId, keychainId)).orderBy(keys.seq)
    const keysBefore = await keysOf()

    await stack.withPage(async (page) => {
      await stack.signIn(page, admin)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/app/keychains/${keychainId}`)
      await page.getByRole('heading', { name: 'Remise 4', level: 1 }).waitFor()
      // Nothing destructive in sight: delete sits in the overflow menu.
      expect(await page.getByRole('button', { name: 'Supprimer le trousseau' }).isVisible()).toBe(false)
      await page.getByLabel('Autres actions pour Remise 4').click()
      await page.getByRole('button', { name: 'Supprimer le trousseau' }).click()
      const dialog = page.getByRole('alertdialog')
      await dialog.getByRole('button', { name: 'Supprimer' }).click()
      await page.waitForURL((url) => url.pathname === '/app/keychains')
      const undo = page.getByRole('button', { name: 'Annuler la suppression de Remise 4' })
      await undo.waitFor()
      await page.getByRole('status').getByText('Le trousseau Remise 4 a été supprimé.').waitFor()
      expect(await page.getByRole('list', { name: 'Trousseaux' }).count()).toBe(0)
      // Meanwhile its tag is free: a search by its code finds nothing.
      const [parked] = await stack.deps.database.db.select().from(keys).where(eq(keys.tagId, tag!.id))
      expect(parked).toBeUndefined()

      await undo.click()
      await page.getByText('Le trousseau Remise 4 est de retour.').waitFor()
      const list = page.getByRole('list', { name: 'Trousseaux' })
      await list.getByRole('link', { name: 'Remise 4' }).waitFor()
      await list.getByText(tag!.code, { exact: false }).waitFor()
      await list.getByText('2 clés', { exact: false }).waitFor()
      await list.getByRole('link', { name: 'Remise 4' }).click()
      await page.getByRole('heading', { name: 'Remise 4', level: 1 }).waitFor()
      await page.getByText('Cadenas').waitFor()
    })
    const keysAfter = await keysOf()
    expect(keysAfter.map((key) => [key.id, key.name, key.tagId, key.parkedTagId])).toEqual(
      keysBefore.map((key) => [key.id, key.name, key.tagId, null]),
    )
  })
})
