import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { OPERATOR_EMAIL, type Stack, startStack } from './harness.ts'
import { createOrganizationInApp } from './organizations.ts'

let stack: Stack
let organizationId = ''
let paidOrderPath = ''
const ADMIN = 'lea.admin@example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

async function signInAdmin(page: Page) {
  await stack.signIn(page, ADMIN)
  await page.waitForURL((url) => url.pathname === '/app')
}

async function fillDesign(page: Page, name: string, alphaCode: string) {
  await page.getByLabel("Nom de l'étiquette").fill(name)
  await page.getByLabel('Code alphabétique').fill(alphaCode)
}

/** Pays on the local sandbox page the order's Pay button leads to. */
/** Opens the cart and orders what it holds, landing on the new order's page. */
async function orderTheCart(page: Page) {
  await page
    .getByRole('button', { name: /Panier/ })
    .first()
    .click()
  await page.getByRole('button', { name: 'Commander' }).click()
  await page.waitForURL(/\/app\/orders\/[0-9a-f-]{36}$/)
}

async function payInSandbox(page: Page, outcome: 'pay' | 'fail' | 'cancel') {
  await page.getByRole('button', { name: 'Payer', exact: true }).click()
  await page.waitForURL(/\/api\/payments\/local\//)
  if (outcome === 'pay') await page.getByRole('button', { name: /^Payer / }).click()
  else if (outcome === 'fail') await page.getByRole('button', { name: 'Simuler un paiement refusé' }).click()
  else await page.getByRole('button', { name: 'Annuler' }).click()
}

describe('commerce in a real browser: tag orders, local payment, production, plans', () => {
  it('orders 100 tags on one page, pays in the sandbox, and finds the order paid with its tags', async () => {
    await stack.withPage(async (page) => {
      await signInAdmin(page)
      organizationId = await createOrganizationInApp(page, 'Syndic Voltaire', {
        line1: '8 boulevard Voltaire',
        postalCode: '75011',
        city: 'Paris',
      })
      // An empty order list offers the next step: ordering tags.
      await page.goto('/app/orders')
      await page.getByText("Aucune commande pour l'instant.").waitFor()
      await page.getByRole('link', { name: 'Commander des étiquettes' }).click()
      await page.waitForURL('**/new-order')
      await fillDesign(page, 'Caves', 'vol')
      await page.getByLabel('Couleur de fond', { exact: true }).fill('#222222')
      await page.getByRole('button', { name: 'Passer la commande' }).click()
      await page.getByText('Les lecteurs ne pourront pas lire ce QR code', { exact: false }).waitFor()
      await page.getByLabel('Couleur de fond', { exact: true }).fill('#fde68a')
      await page.getByLabel('Quantité').fill('100')
      await page
        .getByRole('figure', { name: "Aperçu de l'étiquette imprimée" })
        .getByText('VOL-00001')
        .waitFor()
      await page.getByRole('button', { name: 'Passer la commande' }).click()
      await page.waitForURL(/\/app\/orders\/[0-9a-f-]{36}$/)
      paidOrderPath = new URL(page.url()).pathname
      await payInSandbox(page, 'pay')
      await page.waitForURL((url) => url.pathname === '/app/order-result/success')
      await page.getByRole('heading', { name: 'Paiement reçu' }).waitFor()
      await page.getByRole('link', { name: 'Voir la commande' }).click()
      await page.getByTestId('order-status').getByText('Payée').waitFor()
      expect(
        await page.getByRole('list', { name: 'Étiquettes de la commande' }).getByRole('listitem').count(),
      ).toBe(100)
      await page.goto(`/app/organizations/${organizationId}?tab=tags`)
      await page.getByText('VOL-00001').waitFor()
    })
  })

  it('orders step by step into the cart, shows the cancel page for a cancelled payment, then pays it', async () => {
    await stack.withPage(async (page) => {
      await signInAdmin(page)
      await page.goto(`/app/organizations/${organizationId}/_new-order`)
      await fillDesign(page, 'Boîtes', 'BOX')
      await page.getByRole('button', { name: 'Suivant' }).click()
      await page.getByLabel('Quantité').fill('100')
      await page.getByRole('button', { name: 'Suivant' }).click()
      expect(await page.getByLabel('Ville').inputValue()).toBe('Paris')
      await page.getByRole('button', { name: 'Suivant' }).click()
      await page.getByRole('button', { name: 'Ajouter au panier' }).click()
      await page.getByText('Les étiquettes ont été ajoutées au panier.').waitFor()
      const cart = (await (await page.request.get('/api/cart')).json()) as {
        items: Array<{ quantity: number; configuration: { alphaCode: string; name: string } }>
      }
      expect(
        cart.items.map((item) => [item.quantity, item.configuration.alphaCode, item.configuration.name]),
      ).toEqual([[100, 'BOX', 'Boîtes']])
      await orderTheCart(page)
      // A declined card says so (not "cancelled"), and the order reads as declined.
      await payInSandbox(page, 'fail')
      await page.waitForURL((url) => url.pathname === '/app/order-result/cancel')
      await page.getByRole('heading', { name: 'Paiement refusé' }).waitFor()
      await page.getByRole('link', { name: 'Voir la commande' }).click()
      await page.getByTestId('order-status').getByText('Paiement refusé').waitFor()
      await payInSandbox(page, 'cancel')
      await page.waitForURL((url) => url.pathname === '/app/order-result/cancel')
      await page.getByRole('heading', { name: 'Paiement annulé' }).waitFor()
      // A cancelled payment can be tried again from the order: this time it is paid.
      await page.getByRole('link', { name: 'Voir la commande' }).click()
      await page.getByTestId('order-status').getByText('Paiement non abouti').waitFor()
      await payInSandbox(page, 'pay')
      await page.getByRole('heading', { name: 'Paiement reçu' }).waitFor()
      await page.getByRole('link', { name: 'Voir la commande' }).click()
      await page.getByTestId('order-status').getByText('Payée').waitFor()
      await page.getByText('BOX-00001').waitFor()
    })
  })

  it('lets an operator confirm, produce, ship, deliver and export the tags as CSV', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, OPERATOR_EMAIL)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(paidOrderPath)
      for (const [action, status] of [
        ['Confirmer', 'Confirmée'],
        ['Mettre en production', 'En production'],
        ['Expédier', 'Expédiée'],
        ['Marquer comme livrée', 'Livrée'],
      ] as const) {
        await page.getByRole('button', { name: action }).click()
        await page.getByTestId('order-status').getByText(status, { exact: true }).waitFor()
      }
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Exporter les étiquettes (CSV)' }).click(),
      ])
      const path = await download.path()
      const { readFile } = await import('node:fs/promises')
      const rows = (await readFile(path, 'utf8')).trim().split(/\r?\n/)
      expect(rows[0]).toBe('code,name,foreground_color,background_color,url')
      expect(rows).toHaveLength(101)
      expect(rows[1]).toMatch(
        /^VOL-00001,Caves,#[0-9a-f]{6},#fde68a,http:\/\/localhost:\d+\/tags\/[a-z2-7]{20}$/,
      )
    })
  })

  it('buys a yearly plan and shows the subscription with its allowance', async () => {
    await stack.withPage(async (page) => {
      await signInAdmin(page)
      await page.goto('/app/plans')
      await page.getByRole('button', { name: 'Annuel' }).click()
      await page.getByText('facturés à l', { exact: false }).first().waitFor()
      await page
        .getByRole('button', { name: /^Choisir / })
        .first()
        .click()
      await page.getByText('est dans votre panier', { exact: false }).waitFor()
      await orderTheCart(page)
      await payInSandbox(page, 'pay')
      await page.getByRole('heading', { name: 'Paiement reçu' }).waitFor()
      await page.goto(`/app/organizations/${organizationId}`)
      const subscription = page.getByTestId('subscription')
      await subscription.waitFor()
      expect(await subscription.textContent()).toMatch(/^Formule .+, jusqu'au /)
      await page.getByText(/transferts restants sur \d+ ce mois-ci/).waitFor()
      // The plans page opens on the plan's billing period, marks it, shows its use, and offers to switch.
      await page.goto('/app/plans')
      expect(await page.getByTestId('current-plan').textContent()).toMatch(
        /^Votre formule : .+, annuelle, jusqu'au /,
      )
      await page.getByRole('meter', { name: 'Transferts utilisés ce mois-ci' }).waitFor()
      expect(await page.getByRole('button', { name: 'Annuel' }).getAttribute('aria-pressed')).toBe('true')
      await page.getByText('Formule actuelle').waitFor()
      expect(await page.getByRole('button', { name: /^Passer à / }).count()).toBeGreaterThan(0)
      expect(await page.getByRole('button', { name: /^Choisir / }).count()).toBe(0)
    })
  })
})
