import { today } from '@internationalized/date'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../server/db/schema.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { createOrganization } from '../../server/modules/organizations/service.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows } from './mirror.ts'

let stack: Stack
const OFFICE = 'claire.bureau@example.com'
const FIELD = 'yann.terrain@example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** A JSON request from the office's page, with its session: another device using the API. */
async function call(page: Page, method: string, path: string, body?: unknown): Promise<number> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      return response.status
    },
    { method, path, body },
  )
}

async function scanOffline(page: Page, code: string, keychain: string) {
  await page.getByLabel("Code ou lien de l'étiquette").fill(code)
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 2, name: keychain }).waitFor()
}

describe('the field mirror follows the office through the change feed', () => {
  it('shows a rename, a moved tag, a cancelled transfer and a deleted keychain after the next sync, offline', async () => {
    const { deps } = stack
    const db = deps.database.db
    const now = deps.clock.now()
    const [office] = await db
      .insert(users)
      .values({
        email: OFFICE,
        firstName: 'Claire',
        lastName: 'Bureau',
        locale: 'fr',
        createdAt: now,
        lastSeenAt: now,
      })
      .returning()
    const organization = await createOrganization(deps, office!, {
      name: 'Résidence du Parc',
      address: { line1: '2 allée du Parc', line2: '', city: 'Nantes', postalCode: '44000', country: 'FR' },
    })
    const organizationId = organization.id
    await stack.subscribe(organizationId)
    const fieldId = await stack.addMember(organizationId, FIELD, 'MEMBER', 'Yann')
    const tags = await stack.createTags(organizationId, { alphaCode: 'PRC', count: 2, name: 'Parc' })
    const cellar = await stack.createKeychainWithTag(organizationId, 'Cave 1', tags[0]!.id)
    const attic = await stack.createKeychainWithTag(organizationId, 'Grenier', tags[1]!.id)
    const garage = await createKeychain(deps, {
      organizationId,
      actorId: office!.id,
      keychain: { name: 'Garage', custodianId: null },
    })
    const doomed = await createKeychain(deps, {
      organizationId,
      actorId: office!.id,
      keychain: { name: 'Local vélos', custodianId: null },
    })
    const transfer = await createTransfer(deps, {
      organizationId,
      actor: office!,
      keychainId: cellar,
      transfer: {
        recipient: { kind: 'member', userId: fieldId },
        fromDate: today('Europe/Paris').toString(),
        toDate: today('Europe/Paris').add({ days: 2 }).toString(),
      },
    })

    const officeContext = await stack.newContext()
    const officePage = await officeContext.newPage()
    try {
      await stack.signIn(officePage, OFFICE)
      await officePage.waitForURL((url) => url.pathname === '/app')

      await stack.withPage(async (page, context) => {
        await stack.signIn(page, FIELD)
        await page.waitForURL((url) => url.pathname === '/app')
        // The first sync fills the mirror with the whole organization.
        await expect
          .poll(async () => (await storedRows(page, 'keychains')).length, { timeout: 20_000 })
          .toBe(4)
        await expect.poll(async () => (await storedRows(page, 'transfers')).length).toBe(1)
        await expect
          .poll(async () => (await storedRows(page, 'meta')).some((row) => row.key === 'sync'))
          .toBe(true)

        // The office renames, moves a tag to another keychain, cancels the transfer, deletes a keychain.
        expect(await call(officePage, 'PATCH', `/api/keychains/${attic}`, { name: 'Grenier Est' })).toBe(200)
        const atticKeys = await officePage.evaluate(
          async (id) => (await (await fetch(`/api/keychains/${id}`)).json()).keys,
          attic,
        )
        expect(await call(officePage, 'DELETE', `/api/keychains/${attic}/keys/${atticKeys[0].id}`)).toBe(204)
        expect(
          await call(officePage, 'POST', `/api/keychains/${garage.id}/keys`, {
            type: 'TAG',
            name: 'Portail',
            tagId: tags[1]!.id,
          }),
        ).toBe(201)
        expect(await call(officePage, 'DELETE', `/api/transfers/${transfer.id}`)).toBe(200)
        expect(await call(officePage, 'DELETE', `/api/keychains/${doomed.id}`)).toBe(204)

        // The device's next sync (here: the window gets the focus back) brings exactly that.
        await page.evaluate(() => window.dispatchEvent(new Event('focus')))
        await expect
          .poll(async () => (await storedRows(page, 'keychains')).map((row) => row.id).sort(), {
            timeout: 20_000,
          })
          .toEqual([cellar, attic, garage.id].sort())
        const stored = await storedRows(page, 'transfers')
        expect(stored.map((row) => row.status)).toEqual(['CANCELLED'])

        await page.goto('/app/scan')
        await page.getByLabel("Code ou lien de l'étiquette").waitFor()
        // Offline, the reload is served by the service worker: it must have finished installing.
        await page.evaluate(async () => {
          await navigator.serviceWorker.ready
        })
        await context.setOffline(true)
        await page.reload()
        await page.getByTestId('offline-banner').waitFor()
        // The moved tag now opens the garage; the cellar's tag offers no pickup of a cancelled transfer.
        await scanOffline(page, tags[1]!.code, 'Garage')
        await scanOffline(page, tags[0]!.code, 'Cave 1')
        expect(await page.getByRole('button', { name: 'Confirmer le retrait' }).count()).toBe(0)
        // The list, offline: renamed, and without the deleted keychain.
        await page.getByRole('link', { name: 'Trousseaux' }).first().click()
        await page.getByText('Grenier Est').first().waitFor()
        expect(await page.getByText('Local vélos').count()).toBe(0)
        expect(await page.getByText('Grenier', { exact: true }).count()).toBe(0)
      })
    } finally {
      await officeContext.close()
    }
  })
})
