import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keychains, transfers, users } from '../../server/db/schema.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { startOfDayIn } from '../../server/shared/time-zones.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'margot.admin@example.com'
const MEMBER = 'nora.terrain@example.com'
const PARIS = 'Europe/Paris'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** The names of the keychains the transfer list shows, in order. */
async function listedKeychains(page: import('playwright-core').Page): Promise<string[]> {
  const rows = page.getByRole('list', { name: 'Transferts' }).getByRole('listitem')
  return (await rows.locator('p.font-semibold').allTextContents()).map((name) => name.trim())
}

describe('the transfer list: a new transfer from the list, quick filters, cancel from a menu', () => {
  it('authorizes through the keychain picker, warns of an overlap, filters today and overdue, cancels from the menu; the member page lists what they hold', async () => {
    const { deps } = stack
    const db = deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Régie Bastille')
    await stack.subscribe(organizationId)
    const memberId = await stack.addMember(organizationId, MEMBER, 'MEMBER', 'Nora')
    const tags = await stack.createTags(organizationId, { alphaCode: 'BAS', count: 3, name: 'Bastille' })
    const bureauId = await stack.createKeychainWithTag(organizationId, 'Bureau 2', tags[0]!.id)
    const caveId = await stack.createKeychainWithTag(organizationId, 'Cave 7', tags[1]!.id)
    const grenierId = await stack.createKeychainWithTag(organizationId, 'Grenier', tags[2]!.id)
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
    const firstDay = today(PARIS)
    const day = (days: number) => firstDay.add({ days }).toString()
    const authorized = (keychainId: string, fromDate: string, toDate: string) =>
      createTransfer(deps, {
        organizationId,
        actor: admin!,
        keychainId,
        transfer: { recipient: { kind: 'member', userId: memberId }, fromDate, toDate },
      })
    // Cave 7 opens today; Bureau 2 is promised from in five days; Grenier was picked up and is two days late.
    const cave = await authorized(caveId, day(0), day(3))
    await authorized(bureauId, day(5), day(8))
    await db.insert(transfers).values({
      organizationId,
      keychainId: grenierId,
      keychainName: 'Grenier',
      recipientId: memberId,
      fromDate: day(-6),
      toDate: day(-2),
      startsAt: startOfDayIn(PARIS, day(-6)),
      endsAt: startOfDayIn(PARIS, day(-2)),
      status: 'TRANSFERRED',
      createdAt: deps.clock.now(),
      pickedUpAt: deps.clock.now(),
    })
    await db.update(keychains).set({ custodianId: memberId }).where(eq(keychains.id, grenierId))

    await stack.withPage(async (page) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/transfers')
      await page.getByRole('link', { name: 'Nouveau transfert' }).click()
      await page.waitForURL((url) => url.pathname === '/app/transfers/new')

      // A name typed in part lists the keychains the server finds.
      await page.getByLabel('Trousseau', { exact: true }).fill('cave')
      await page.getByRole('list', { name: 'Trousseaux trouvés' }).getByText('Cave 7').waitFor()
      // A tag code, as a hardware scanner types it (then Enter), picks its keychain.
      await page.getByLabel('Trousseau', { exact: true }).fill(tags[0]!.code.toLowerCase())
      await page.keyboard.press('Enter')
      await page.getByText('Trousseau : Bureau 2').waitFor()

      await page.getByLabel('Destinataire').selectOption(memberId)
      // Six days from today runs into Bureau 2's transfer from day 5: said before sending, with its dates.
      await page.getByLabel('Au', { exact: true }).fill(day(6))
      const warning = page.getByRole('status').filter({ hasText: 'chevauchent un autre transfert' })
      await warning.waitFor()
      expect(await warning.textContent()).toContain('À Nora')
      // The "tomorrow" preset ends before it: the warning goes.
      await page.getByRole('button', { name: 'Demain' }).click()
      expect(await page.getByLabel('Au', { exact: true }).inputValue()).toBe(day(1))
      await warning.waitFor({ state: 'detached' })
      await page.getByRole('button', { name: 'Autoriser le transfert' }).click()
      await page.waitForURL((url) => url.pathname === '/app/transfers')
      await expect.poll(() => listedKeychains(page), { timeout: 10_000 }).toContain('Bureau 2')
      const created = await db.select().from(transfers).where(eq(transfers.keychainId, bureauId))
      expect(created.map((row) => [row.fromDate, row.toDate]).sort()).toEqual([
        [day(0), day(1)],
        [day(5), day(8)],
      ])

      // Today: what opens or comes back today (the new one and Cave 7); overdue: Grenier only.
      await page.getByRole('button', { name: 'Aujourd’hui' }).click()
      await page.waitForURL((url) => url.searchParams.get('when') === 'today')
      await expect
        .poll(() => listedKeychains(page).then((names) => names.sort()))
        .toEqual(['Bureau 2', 'Cave 7'])
      await page.getByRole('button', { name: 'En retard', exact: true }).click()
      await page.waitForURL((url) => url.searchParams.get('when') === 'overdue')
      await expect.poll(() => listedKeychains(page)).toEqual(['Grenier'])
      await page.getByRole('button', { name: 'Tous', exact: true }).click()
      await expect.poll(() => listedKeychains(page).then((names) => names.length)).toBe(4)

      // Cancel lives in the row's menu, behind a confirmation.
      await page.getByRole('button', { name: 'Plus d’actions pour le transfert de « Cave 7 »' }).click()
      await page.getByRole('menuitem', { name: 'Annuler le transfert' }).click()
      await page.getByRole('alertdialog').getByRole('button', { name: 'Annuler le transfert' }).click()
      await page.getByText('Le transfert a été annulé.').waitFor()
      await expect
        .poll(async () => (await db.select().from(transfers).where(eq(transfers.id, cave.id)))[0]?.status)
        .toBe('CANCELLED')

      // The member's page, from the recipient's name: what they hold now (Grenier, late) and their transfers.
      await page
        .getByRole('list', { name: 'Transferts' })
        .getByRole('listitem')
        .filter({ hasText: 'Grenier' })
        .getByRole('link', { name: 'Nora' })
        .click()
      await page.waitForURL((url) => url.pathname === `/app/users/${memberId}`)
      const held = page.getByRole('list', { name: 'Trousseaux détenus en ce moment' })
      await held.getByText('Grenier').waitFor()
      expect(await held.textContent()).toContain('En retard depuis le')
      const theirs = page.getByRole('list', { name: 'Ses transferts' })
      await theirs.getByText('Cave 7').waitFor()
      expect(await theirs.getByRole('listitem').count()).toBe(4)
    })

    // The member sees their own page (without the details only managers read).
    await stack.withPage(async (page) => {
      await stack.signIn(page, MEMBER)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/transfers/requests')
      await page.getByRole('link', { name: 'Ce que je détiens dans cette organisation' }).click()
      await page.waitForURL((url) => url.pathname === `/app/users/${memberId}`)
      await page.getByRole('heading', { name: 'Mes trousseaux et transferts' }).waitFor()
      await page.getByRole('list', { name: 'Trousseaux détenus en ce moment' }).getByText('Grenier').waitFor()
    })
  })
})
