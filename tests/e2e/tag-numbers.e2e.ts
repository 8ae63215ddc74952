import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Stack, startStack } from './harness.ts'
import { createOrganizationInApp } from './organizations.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

describe('a tag order says the numbers the tags will really carry (issue 23)', () => {
  it('proposes the next free number, shows a taken range’s real codes in the form, the cart and the order, then prints them', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, 'numbers.admin@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      const organizationId = await createOrganizationInApp(page, 'Dépôt Est')
      // DEM-00001 to DEM-00060 exist already (an earlier order).
      await stack.createTags(organizationId, { alphaCode: 'DEM', count: 60, name: 'Anciennes' })

      await page.goto(`/app/organizations/${organizationId}/new-order`)
      const alphaCode = page.getByLabel('Code alphabétique')
      const startNumber = page.getByLabel('Premier numéro')
      const preview = page.getByRole('figure', { name: "Aperçu de l'étiquette imprimée" })
      // The form proposes the organization's code and the number after its last tag.
      await expect.poll(() => alphaCode.inputValue()).toBe('DEM')
      expect(await startNumber.inputValue()).toBe('61')
      await page.getByText('Les étiquettes porteront les codes DEM-00061 à DEM-00160.').waitFor()
      await preview.getByText('DEM-00061').waitFor()

      // Asking for a taken range says where the numbers really go, before anything is paid.
      await startNumber.fill('1')
      await page
        .getByText(
          'DEM-00001 est déjà pris ou réservé par votre panier : les étiquettes porteront les codes DEM-00061 à DEM-00160.',
        )
        .waitFor()
      await preview.getByText('DEM-00061').waitFor()
      await page.getByRole('button', { name: 'Commencer à DEM-00061' }).click()
      expect(await startNumber.inputValue()).toBe('61')

      // The line goes to the cart still asking for DEM-00001: the cart and the order say what it really gets.
      await startNumber.fill('1')
      await page.getByLabel("Nom de l'étiquette").fill('Caves')
      await page.getByRole('button', { name: 'Ajouter au panier' }).click()
      await page.getByText('Les étiquettes ont été ajoutées au panier.').waitFor()
      // The next line is proposed after the one in the cart.
      await expect.poll(() => startNumber.inputValue()).toBe('161')

      await page
        .getByRole('button', { name: /Panier/ })
        .first()
        .click()
      await page.getByText('DEM-00061 à DEM-00160').waitFor()
      await page.getByRole('button', { name: 'Commander' }).click()
      await page.waitForURL(/\/app\/orders\/[0-9a-f-]{36}$/)
      const planned = page.getByRole('list', { name: 'Codes que porteront les étiquettes' })
      await planned.getByText('DEM-00061 à DEM-00160').waitFor()

      await page.getByRole('button', { name: 'Payer', exact: true }).click()
      await page.waitForURL(/\/api\/payments\/local\//)
      await page.getByRole('button', { name: /^Payer / }).click()
      await page.getByRole('heading', { name: 'Paiement reçu' }).waitFor()
      await page.getByRole('link', { name: 'Voir la commande' }).click()
      const printed = page.getByRole('list', { name: 'Étiquettes de la commande' })
      await printed.getByText('DEM-00061').waitFor()
      const codes = await printed.getByRole('listitem').allTextContents()
      expect(codes).toHaveLength(100)
      expect(codes.some((text) => text.includes('DEM-00160'))).toBe(true)
      expect(codes.some((text) => text.includes('DEM-00001'))).toBe(false)
    })
  })
})
