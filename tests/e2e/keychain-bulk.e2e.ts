import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memberships, subscriptions, transfers } from '../../server/db/schema.ts'
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
      await stack.signIn(page, ADMIN)
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
      await expect.poll(() => grenier.isChecked()).toBe(true)
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

  it('authorizes a transfer of three keychains to one recipient, then refuses two more past the allowance', async () => {
    const organizationId = await organizationOfNewAdmin(stack, 'marc.bulk@example.com', 'Agence Prêts')
    const [{ userId: admin } = { userId: '' }] = await stack.deps.database.db
      .select({ userId: memberships.userId })
      .from(memberships)
      .where(eq(memberships.organizationId, organizationId))
    const chloe = await stack.addMember(organizationId, 'chloe.bulk@example.com', 'CONTACT', 'Chloé')
    // A plan of 4 transfers a month: the first three fit, two more do not.
    await stack.subscribe(organizationId)
    await stack.deps.database.db
      .update(subscriptions)
      .set({ transfersPerMonth: 4 })
      .where(eq(subscriptions.organizationId, organizationId))
    const ids = new Map<string, string>()
    for (const name of ['Atelier', 'Bureau', 'Cave', 'Garage', 'Grenier']) {
      const keychain = await createKeychain(stack.deps, {
        organizationId,
        actorId: admin,
        keychain: { name, custodianId: admin },
      })
      ids.set(name, keychain.id)
    }
    const transfersOfOrganization = () =>
      stack.deps.database.db.select().from(transfers).where(eq(transfers.organizationId, organizationId))

    await stack.withPage(async (page) => {
      await stack.signIn(page, 'marc.bulk@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/keychains')
      const list = page.getByRole('list', { name: 'Trousseaux' })
      await list.getByRole('link', { name: 'Cave' }).waitFor()
      for (const name of ['Cave', 'Garage', 'Grenier'])
        await page.getByRole('checkbox', { name: `Sélectionner ${name}` }).check()
      const bar = page.getByRole('region', { name: 'Trousseaux sélectionnés' })
      await bar.getByText('3 trousseaux sélectionnés').waitFor()

      await bar.getByRole('button', { name: 'Autoriser des transferts' }).click()
      const dialog = page.getByRole('alertdialog')
      await dialog.getByRole('heading', { name: 'Autoriser le transfert de 3 trousseaux' }).waitFor()
      // Nothing to send before a recipient is chosen.
      expect(await dialog.getByRole('button', { name: 'Autoriser' }).isDisabled()).toBe(true)
      await dialog.getByLabel('Destinataire').selectOption(chloe)
      await dialog.getByRole('button', { name: 'Autoriser' }).click()
      await page.getByText('3 transferts autorisés.').waitFor()
      expect(await page.getByRole('region', { name: 'Trousseaux sélectionnés' }).count()).toBe(0)

      // The organization's transfers list shows the three, to Chloé.
      await page.goto('/app/transfers')
      const table = page.getByRole('list', { name: 'Transferts' })
      for (const name of ['Cave', 'Garage', 'Grenier']) await table.getByText(name, { exact: true }).waitFor()
      expect(await table.getByRole('listitem').count()).toBe(3)
      expect(await table.getByText(/^À Chloé/).count()).toBe(3)

      // Two more, with one transfer left this month: refused whole, saying how many are left.
      await page.goto('/app/keychains')
      await list.getByRole('link', { name: 'Atelier' }).waitFor()
      for (const name of ['Atelier', 'Bureau'])
        await page.getByRole('checkbox', { name: `Sélectionner ${name}` }).check()
      await bar.getByRole('button', { name: 'Autoriser des transferts' }).click()
      await dialog.getByRole('heading', { name: 'Autoriser le transfert de 2 trousseaux' }).waitFor()
      await dialog.getByLabel('Destinataire').selectOption(chloe)
      await dialog.getByRole('button', { name: 'Autoriser' }).click()
      await page
        .getByText(
          'Votre formule permet 4 transferts par mois et il en reste 1 ce mois-ci, moins que la sélection : rien n’a été autorisé.',
        )
        .waitFor()
    })

    const made = await transfersOfOrganization()
    expect(made.map((transfer) => transfer.keychainId).sort()).toEqual(
      ['Cave', 'Garage', 'Grenier'].map((name) => ids.get(name)).sort(),
    )
    for (const transfer of made) expect(transfer).toMatchObject({ status: 'SCHEDULED', recipientId: chloe })
  })
})
