import { eq, inArray } from 'drizzle-orm'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { shiftCalendarDay } from '../../contract/transfers.ts'
import { keychains, transfers, users } from '../../server/db/schema.ts'
import { calendarDayIn, startOfDayIn } from '../../server/shared/time-zones.ts'
import { type Stack, startStack } from './harness.ts'
import { createOrganizationInApp, organizationOfNewAdmin } from './organizations.ts'

let stack: Stack

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

const checklist = (page: Page) => page.getByRole('region', { name: 'Pour commencer' })

/** The dashboard afresh (its figures are asked again), once its counts are shown. */
async function dashboard(page: Page) {
  await page.goto('/app')
  await page.getByRole('heading', { name: "Vue d'ensemble" }).waitFor()
}

describe('an office dashboard that says what to do next (issue 23)', () => {
  it('walks a new organization through its checklist, shows the allowance and two charts, and lists its tags', async () => {
    await stack.withPage(async (page) => {
      await stack.signIn(page, 'dashboard.admin@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      const organizationId = await createOrganizationInApp(page, 'Agence Tableau')

      // A new organization: every step to do, each leading to where it is done.
      await dashboard(page)
      await checklist(page).getByText('Étapes faites : 0 sur 4').waitFor()
      expect(
        await checklist(page)
          .getByRole('link', { name: 'Commander des étiquettes pour vos clés' })
          .getAttribute('href'),
      ).toBe(`/app/organizations/${organizationId}/new-order`)
      await checklist(page).getByRole('link', { name: 'Choisir un forfait' }).waitFor()
      // No plan yet: the allowance says so and where to choose one.
      const allowance = page.getByRole('region', { name: 'Transferts ce mois-ci' })
      await allowance.getByText('Aucun forfait en cours').waitFor()

      // The first step taken in the app: a keychain, from the checklist's link.
      await checklist(page).getByRole('link', { name: 'Créer un premier trousseau' }).click()
      await page.waitForURL('**/app/keychains/new')
      await page.getByLabel('Nom', { exact: true }).fill('Bureau 1')
      await page.getByRole('button', { name: /Créer le trousseau/ }).click()
      await page.waitForURL(/\/app\/keychains\/[0-9a-f-]{36}$/)
      await dashboard(page)
      await checklist(page).getByText('Étapes faites : 1 sur 4').waitFor()
      expect(await checklist(page).getByRole('link', { name: 'Créer un premier trousseau' }).count()).toBe(0)

      // Tags (as a paid order makes them), one of them on a keychain's key; a member; a plan.
      const tags = await stack.createTags(organizationId, { alphaCode: 'TAB', count: 5, name: 'Tableau' })
      const keychainId = await stack.createKeychainWithTag(organizationId, 'Cave 2', tags[2]!.id)
      await dashboard(page)
      await checklist(page).getByText('Étapes faites : 2 sur 4').waitFor()
      const memberId = await stack.addMember(organizationId, 'dashboard.member@example.com', 'MEMBER', 'Léa')
      await dashboard(page)
      await checklist(page).getByText('Étapes faites : 3 sur 4').waitFor()
      await stack.subscribe(organizationId)

      // A transfer authorized today: the allowance counts it.
      const today = calendarDayIn('Europe/Paris', stack.clock.now())
      const status = await page.evaluate(
        async ({ keychainId, memberId, fromDate, toDate }) =>
          (
            await fetch(`/api/keychains/${keychainId}/transfers`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ recipient: { kind: 'member', userId: memberId }, fromDate, toDate }),
            })
          ).status,
        { keychainId, memberId, fromDate: today, toDate: shiftCalendarDay(today, 2) },
      )
      expect(status).toBe(201)

      await dashboard(page)
      // Every step done: the checklist is gone.
      await allowance.getByRole('meter', { name: 'Transferts utilisés ce mois-ci' }).waitFor()
      expect(await checklist(page).count()).toBe(0)
      const meter = allowance.getByRole('meter', { name: 'Transferts utilisés ce mois-ci' })
      const limit = Number(await meter.getAttribute('max'))
      expect(limit).toBeGreaterThan(1)
      expect(await meter.getAttribute('value')).toBe('1')
      await allowance.getByText(`1 transferts utilisés sur ${limit} ce mois-ci`, { exact: false }).waitFor()

      // The two charts, after the counts, each with its text alternative.
      const byStatus = page.getByRole('table', { name: 'Trousseaux par état' })
      await byStatus.waitFor()
      const statusRows = await byStatus.locator('tbody tr').allTextContents()
      expect(statusRows).toEqual([
        'Sans détenteur1',
        'Chez un détenteur0',
        'Transfert prévu1',
        'Sorti en transfert0',
        'En retard0',
      ])
      const perWeek = page.getByRole('table', { name: 'Transferts par semaine' })
      expect(await perWeek.getByRole('row').count()).toBe(1 + 12)
      await page.getByText('1 ces 12 dernières semaines, 1 cette semaine.').waitFor()
      expect(
        await page.getByRole('figure', { name: 'Transferts par semaine' }).locator('svg rect').count(),
      ).toBe(12)
      // The charts and the cards beside the counts came into places kept for them: nothing moved.
      const shifted = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let total = 0
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as Array<
                PerformanceEntry & { value: number; hadRecentInput: boolean }
              >)
                if (!entry.hadRecentInput) total += entry.value
            }).observe({ type: 'layout-shift', buffered: true })
            setTimeout(() => resolve(total), 300)
          }),
      )
      expect(shifted).toBeLessThan(0.05)

      // The tags page inside the app: search by code, free or used.
      await page.goto('/app/tags')
      await page.getByRole('heading', { name: 'Étiquettes', level: 1 }).waitFor()
      const list = page.getByRole('list').filter({ hasText: 'TAB-' })
      await list.getByText(tags[4]!.code).waitFor()
      expect(await list.getByRole('listitem').count()).toBe(5)
      await page.getByLabel('Afficher').selectOption('used')
      await list.getByText(tags[2]!.code).waitFor()
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1)
      await page.getByLabel('Afficher').selectOption('free')
      await list.getByText(tags[0]!.code).waitFor()
      await expect.poll(() => list.getByRole('listitem').count()).toBe(4)
      expect(await list.getByText(tags[2]!.code).count()).toBe(0)
      await page.getByLabel('Rechercher par code ou par nom').fill(tags[2]!.code)
      await page.getByRole('button', { name: 'Rechercher', exact: true }).click()
      await page.getByText('Aucune étiquette ne correspond à cette recherche.').waitFor()
      await page.getByRole('button', { name: 'Effacer la recherche' }).click()
      await expect.poll(() => list.getByRole('listitem').count()).toBe(5)
      await page.getByLabel('Rechercher par code ou par nom').fill(tags[3]!.code)
      await page.getByRole('button', { name: 'Rechercher', exact: true }).click()
      await expect.poll(() => list.getByRole('listitem').count()).toBe(1)
      await list.getByText(tags[3]!.code).waitFor()

      // The same page in English.
      await page.goto('/en/app/tags')
      await page.getByRole('heading', { name: 'Tags', level: 1 }).waitFor()
      await page.getByLabel('Show').waitFor()
    })
  })

  it('puts Scan first on a phone, and shows a member the keychains they hold with their due dates', async () => {
    // An admin's organization where a member holds two keychains: one out to them on a transfer, one not.
    const organizationId = await organizationOfNewAdmin(
      stack,
      'dashboard.office@example.com',
      'Agence Terrain',
    )
    const tags = await stack.createTags(organizationId, { alphaCode: 'TER', count: 2, name: 'Terrain' })
    const out = await stack.createKeychainWithTag(organizationId, 'Réserve', tags[0]!.id)
    const kept = await stack.createKeychainWithTag(organizationId, 'Atelier', tags[1]!.id)
    const email = 'dashboard.holder@example.com'
    const memberId = await stack.addMember(organizationId, email, 'MEMBER', 'Noé')
    const db = stack.deps.database.db
    await db.update(users).set({ selectedOrganizationId: organizationId }).where(eq(users.id, memberId))
    await db
      .update(keychains)
      .set({ custodianId: memberId })
      .where(inArray(keychains.id, [out, kept]))
    const now = stack.clock.now()
    const today = calendarDayIn('Europe/Paris', now)
    const due = shiftCalendarDay(today, 2)
    await db.insert(transfers).values({
      organizationId,
      keychainId: out,
      keychainName: 'Réserve',
      recipientId: memberId,
      fromDate: today,
      toDate: due,
      startsAt: startOfDayIn('Europe/Paris', today),
      endsAt: startOfDayIn('Europe/Paris', due),
      status: 'TRANSFERRED',
      createdAt: now,
      pickedUpAt: now,
    })

    const context = await stack.newPhoneContext()
    try {
      const page = await context.newPage()
      await stack.signIn(page, email)
      await page.waitForURL((url) => url.pathname === '/app')
      const scan = page.getByRole('main').getByRole('link', { name: 'Scanner une étiquette' }).first()
      await scan.waitFor()
      const overview = page.getByRole('heading', { name: "Vue d'ensemble" })
      await overview.waitFor()
      // The screen re-renders as its lazy parts arrive: a box is read once both elements are laid out.
      const boxes = async () => {
        const [scanBox, overviewBox] = [await scan.boundingBox(), await overview.boundingBox()]
        return scanBox && overviewBox ? { scanBox, overviewBox } : null
      }
      await expect.poll(boxes).not.toBeNull()
      const { scanBox, overviewBox } = (await boxes())!
      expect(scanBox.y + scanBox.height).toBeLessThanOrEqual(overviewBox.y)
      expect(scanBox.height).toBeGreaterThanOrEqual(44)

      // What they hold: the one due back first, with its date.
      const mine = page.getByRole('region', { name: 'Trousseaux que vous détenez' })
      await mine.getByRole('link', { name: 'Atelier' }).waitFor()
      const rows = await mine.getByRole('listitem').allTextContents()
      const dueOn = new Intl.DateTimeFormat('fr-FR', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date(`${due}T00:00:00Z`),
      )
      expect(rows).toEqual([`Réserveà rendre le ${dueOn}`, 'Ateliersans date de retour'])
      // A member sees no allowance nor checklist.
      expect(await page.getByRole('region', { name: 'Transferts ce mois-ci' }).count()).toBe(0)
      expect(await checklist(page).count()).toBe(0)
    } finally {
      await context.close()
    }
  })
})
