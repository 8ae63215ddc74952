import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { custodyLogOf } from '../../server/modules/keychains/custody.ts'
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

const ADMIN = 'ines.bulk@example.com'

describe('bulk actions on the keychain list in a real browser', () => {
  it('changes the custodian of three keychains with a reason: one new custody entry each', async () => {
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Agence Lots')
    const paul = await stack.addMember(organizationId, 'paul.bulk@example.com', 'MEMBER', 'Paul')
    const lea = await stack.addMember(organizationId, 'lea.bulk@example.com', 'MEMBER', 'Léa')
    const ids = new Map<string, string>()
    for (const name of ['Cave', 'Garage', 'Grenier', 'Bureau']) {
      // Each starts held by Paul: one custody entry already.
      const keychain = await createKeychain(stack.deps, {
        organizationId,
        actorId: paul,
        keychain: { name, custodianId: paul },
      })
      ids.set(name, keychain.id)
    }

    await stack.withPage(async (page) => {
      await stack.signInByCode(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/keychains')
      const list = page.getByRole('list', { name: 'Trousseaux' })
      await list.getByRole('link', { name: 'Cave' }).waitFor()
      expect(await page.getByRole('region', { name: 'Trousseaux sélectionnés' }).count()).toBe(0)

      // Three ticked, by keyboard for one of them.
      await page.getByRole('checkbox', { name: 'Sélectionner Cave' }).check()
      await page.getByRole('checkbox', { name: 'Sélectionner Garage' }).check()
      const grenier = page.getByRole('checkbox', { name: 'Sélectionner Grenier' })
      await grenier.focus()
      await page.keyboard.press('Space')
      expect(await grenier.isChecked()).toBe(true)
      const bar = page.getByRole('region', { name: 'Trousseaux sélectionnés' })
      await bar.getByText('3 trousseaux sélectionnés').waitFor()

      await bar.getByRole('button', { name: 'Changer de détenteur' }).click()
      const dialog = page.getByRole('alertdialog')
      await dialog.getByRole('heading', { name: 'Changer le détenteur de 3 trousseaux' }).waitFor()
      await dialog.getByLabel('Nouveau détenteur').selectOption(lea)
      await dialog
        .getByLabel('Motif (gardé dans l’historique de chaque trousseau)')
        .fill('Inventaire de printemps')
      await dialog.getByRole('button', { name: 'Changer de détenteur' }).click()
      await page.getByText('Détenteur changé pour 3 trousseaux.').waitFor()
      expect(await page.getByRole('region', { name: 'Trousseaux sélectionnés' }).count()).toBe(0)
      await list
        .getByText(/^Léa ·/)
        .first()
        .waitFor()

      // The custody log of each shows exactly one new entry, with the reason; Bureau's is untouched.
      for (const name of ['Cave', 'Garage', 'Grenier']) {
        await page.goto(`/app/keychains/${ids.get(name)}`)
        const log = page.getByRole('list', { name: 'Historique de garde' })
        await log.getByText('Inventaire de printemps', { exact: false }).waitFor()
        expect(await log.getByRole('listitem').count()).toBe(2)
        // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, with the spaces between its elements
        expect(await log.getByRole('listitem').first().innerText()).toContain('De Paul à Léa')
      }
      await page.goto(`/app/keychains/${ids.get('Bureau')}`)
      const untouched = page.getByRole('list', { name: 'Historique de garde' })
      await untouched.getByRole('listitem').first().waitFor()
      expect(await untouched.getByRole('listitem').count()).toBe(1)
    })

    for (const [name, id] of ids) {
      const log = await custodyLogOf(stack.deps.database.db, id)
      if (name === 'Bureau') expect(log).toHaveLength(1)
      else {
        expect(log).toHaveLength(2)
        expect(log[0]).toMatchObject({ reason: 'Inventaire de printemps', to: { firstName: 'Léa' } })
      }
    }
  })
})
