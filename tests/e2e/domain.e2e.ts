import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAccountMenu, withoutSyncStatus } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { createOrganizationInApp } from './organizations.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

const ADMIN = 'claire.admin@example.com'
const MEMBER = 'bob.member@example.com'
let organizationId = ''

describe('organizations, members, keychains, tags and scanning in a real browser', () => {
  it('refuses an organization without its required fields, then creates it and selects it', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.getByRole('link', { name: 'Créer une organisation' }).click()
      await page.getByRole('button', { name: "Créer l'organisation" }).click()
      await page.getByText('Le nom est obligatoire.').waitFor()
      await page.getByText('La ville est obligatoire.').waitFor()
      await page.goto('/app')
      organizationId = await createOrganizationInApp(page, 'Agence Bastille')
      await page.getByRole('heading', { level: 1, name: 'Agence Bastille' }).waitFor()
      await openAccountMenu(page)
      const switcher = page.getByRole('combobox', { name: 'Organisation' }).first()
      expect(await switcher.inputValue()).toBe(organizationId)
      const profile = (await (await page.request.get('/api/profile')).json()) as {
        selectedOrganizationId: string
        permissions: string[]
      }
      expect(profile.selectedOrganizationId).toBe(organizationId)
      expect(profile.permissions).toContain('create__member')
    })
  })

  it('invites a member by mail, who signs in and sees only what a member may do', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/app/organizations/${organizationId}`)
      const already = stack.mailbox.received.length
      await page.getByLabel('E-mail de la personne à inviter').fill(MEMBER)
      await page.getByRole('combobox', { name: 'Rôle', exact: true }).selectOption('MEMBER')
      await page.getByRole('button', { name: 'Inviter', exact: true }).click()
      await page.getByText(`Invitation envoyée à ${MEMBER}.`).waitFor()
      await page.getByRole('cell', { name: MEMBER }).first().waitFor()
      const invitation = await stack.mailbox.nextMailTo(MEMBER, already)
      expect(invitation.text).toContain('Agence Bastille')
      expect(invitation.text).toContain(`${stack.baseUrl}/sign-in`)
    })
    await stack.withPage(async (page) => {
      await stack.signInByCode(page, MEMBER)
      await page.waitForURL((url) => url.pathname === '/app')
      const menu = page.getByRole('navigation', { name: 'Menu principal' }).first()
      await menu.getByRole('link', { name: 'Scanner une étiquette' }).waitFor()
      expect(withoutSyncStatus(await menu.getByRole('link').allTextContents())).toEqual([
        'Tableau de bord',
        'Scanner une étiquette',
        'Recevoir un trousseau',
        'Demandes de transfert',
        'Trousseaux',
        'Transferts',
        'Étiquettes',
        'Emplacements',
        'Inventaires',
      ])
      await menu.getByRole('link', { name: 'Trousseaux' }).click()
      await page.getByRole('heading', { name: 'Trousseaux' }).waitFor()
      expect(await page.getByRole('link', { name: 'Nouveau trousseau' }).count()).toBe(0)
      const members = await page.request.get('/api/users')
      expect(members.status()).toBe(403)
    })
  })

  it('creates a keychain, adds a key and a tag key, changes custodian, and deletes it after confirmation', async () => {
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'BAS', count: 3, name: 'Porte' })
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/keychains')
      await page.getByRole('link', { name: 'Nouveau trousseau' }).click()
      await page.getByLabel('Nom', { exact: true }).fill('Cave 3')
      await page.getByRole('button', { name: 'Créer le trousseau' }).click()
      await page.waitForURL(/\/app\/keychains\/[0-9a-f-]{36}$/)
      await page.getByRole('heading', { level: 1, name: 'Cave 3' }).waitFor()

      // The page opens on its summary: keys are edited behind "Modifier".
      await page.getByRole('button', { name: 'Modifier' }).click()
      await page.getByLabel('Nom de la clé').fill('Porte de la cave')
      await page.getByRole('button', { name: 'Ajouter la clé' }).click()
      await page.getByRole('list', { name: 'Clés' }).getByText('Porte de la cave').waitFor()

      await page.getByLabel('Nom de la clé').fill('Badge cave')
      await page.getByRole('combobox', { name: 'Type' }).selectOption('TAG')
      await page.getByRole('combobox', { name: 'Étiquette' }).selectOption({ label: `${tag?.code} — Porte` })
      await page.getByRole('button', { name: 'Ajouter la clé' }).click()
      await page.getByRole('list', { name: 'Clés' }).getByText(`Étiquette ${tag?.code}`).waitFor()

      await page.getByRole('combobox', { name: 'Nouveau détenteur' }).selectOption({ label: ADMIN })
      await page.getByLabel('Motif (facultatif)').fill('Inventaire')
      await page.getByRole('button', { name: 'Changer de détenteur' }).click()
      await page.getByTestId('custodian').getByText(ADMIN).waitFor()
      const log = page.getByRole('list', { name: 'Historique de garde' })
      await log.getByText(`De personne à ${ADMIN}`).waitFor()
      await log.getByText('Inventaire', { exact: false }).waitFor()

      const keychainUrl = page.url()
      await page.goto('/app/keychains')
      await page.getByRole('combobox', { name: 'Détenu par' }).selectOption({ label: 'Moi' })
      const list = page.getByRole('list', { name: 'Trousseaux' })
      await list.getByRole('link', { name: 'Cave 3' }).waitFor()
      expect(await list.getByRole('link').count()).toBe(1)
      await page
        .getByLabel('Rechercher des trousseaux par nom, code d’étiquette ou détenteur')
        .fill('grenier')
      await page.getByText('Aucun trousseau ne correspond à cette recherche.').waitFor()
      await page.goto(keychainUrl)

      // Deletion sits in the overflow menu, not among the main actions.
      expect(await page.getByRole('button', { name: 'Supprimer le trousseau' }).isVisible()).toBe(false)
      await page.getByLabel('Autres actions pour Cave 3').click()
      await page.getByRole('button', { name: 'Supprimer le trousseau' }).click()
      await page.getByRole('alertdialog').getByText('Cave 3', { exact: false }).waitFor()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Supprimer' }).click()
      await page.waitForURL((url) => url.pathname === '/app/keychains')
      await page.getByText('Le trousseau Cave 3 a été supprimé.').waitFor()
    })
  })

  it('shows a tag page to a member, and only the neutral page to anyone else', async () => {
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'TAG', count: 1, name: 'Local vélo' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Local vélo', tag!.id)
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/tags/${tag?.publicId}`)
      await page.getByRole('img', { name: `QR code de l'étiquette ${tag?.code}` }).waitFor()
      await page.getByRole('link', { name: 'Ouvrir le trousseau' }).click()
      await page.waitForURL((url) => url.pathname === `/app/keychains/${keychainId}`)
    })
    await stack.withPage(async (page) => {
      await page.goto(`/en/tags/${tag?.publicId}`)
      await page.getByRole('heading', { name: 'Found these keys?' }).waitFor()
      const text = (await page.locator('main').textContent()) ?? ''
      expect(text).toContain('Agence Bastille')
      expect(text).not.toContain('Local vélo')
      expect(text).not.toContain('rue des Clés')
    })
  })

  it('scans a typed tag code and lands on its keychain', async () => {
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'SCN', count: 1, name: 'Bureau' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Bureau 12', tag!.id)
    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.getByRole('link', { name: 'Scanner une étiquette' }).first().click()
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code.toLowerCase())
      await page.keyboard.press('Enter')
      await page.waitForURL((url) => url.pathname === `/app/keychains/${keychainId}`)
      await page.getByRole('heading', { level: 1, name: 'Bureau 12' }).waitFor()
    })
  })
})
