import type { Page } from 'playwright-core'
import type { Stack } from './harness.ts'

export type TestAddress = { line1: string; postalCode: string; city: string }

/**
 * Creates an organization through its form, from a French page that offers the "Créer une organisation" link:
 * the new organization's id, read from the page it opens.
 */
export async function createOrganizationInApp(
  page: Page,
  name: string,
  address: TestAddress = { line1: '12 rue des Clés', postalCode: '75011', city: 'Paris' },
): Promise<string> {
  await page.getByRole('link', { name: 'Créer une organisation' }).first().click()
  await page.waitForURL('**/app/organizations/new')
  await page.getByLabel('Nom', { exact: true }).fill(name)
  await page.getByLabel('Adresse', { exact: true }).fill(address.line1)
  await page.getByLabel('Code postal').fill(address.postalCode)
  await page.getByLabel('Ville').fill(address.city)
  await page.getByRole('button', { name: "Créer l'organisation" }).click()
  await page.waitForURL(/\/app\/organizations\/[0-9a-f-]{36}$/)
  return new URL(page.url()).pathname.split('/').at(-1) ?? ''
}

/** An admin signs in (a new account) and creates the organization through the app: its id. */
export async function organizationOfNewAdmin(
  stack: Stack,
  admin: string,
  name: string,
  address?: TestAddress,
): Promise<string> {
  return stack.withPage(async (page) => {
    await stack.signIn(page, admin)
    await page.waitForURL((url) => url.pathname === '/app')
    return createOrganizationInApp(page, name, address)
  })
}
