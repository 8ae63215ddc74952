import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferExtensions, transfers, users } from '../../server/db/schema.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'ines.admin@example.com'
const HOLDER = 'paul.terrain@example.com'
const MANAGER = 'lea.gestion@example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/** A calendar day as the French screens write it. */
const written = (day: { toString(): string }) =>
  new Intl.DateTimeFormat('fr', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))

describe('more time for a keychain, asked offline, answered by a manager', () => {
  it('keeps the request on the phone, sends it once back online, and both sides see the new window', async () => {
    const { deps } = stack
    const db = deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Régie Voltaire', {
      line1: '8 boulevard Voltaire',
      postalCode: '75011',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const holderId = await stack.addMember(organizationId, HOLDER, 'MEMBER', 'Paul')
    await stack.addMember(organizationId, MANAGER, 'MANAGER', 'Léa')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'VOL', count: 1, name: 'Loge' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Loge gardien', tag!.id)
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
    const firstDay = today('Europe/Paris')
    const dueBack = firstDay.add({ days: 2 })
    const later = firstDay.add({ days: 5 })
    const transfer = await createTransfer(deps, {
      organizationId,
      actor: admin!,
      keychainId,
      transfer: {
        recipient: { kind: 'member', userId: holderId },
        fromDate: firstDay.toString(),
        toDate: dueBack.toString(),
      },
    })

    await stack.withPage(async (page, context) => {
      await stack.signIn(page, HOLDER)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await page.goto(`/app/transfers/requests/${transfer.id}`)
      await page.getByRole('heading', { name: 'Plus de temps' }).waitFor()

      await context.setOffline(true)
      await page.getByLabel('Le garder jusqu’au', { exact: true }).fill(later.toString())
      await page.getByRole('button', { name: 'Demander plus de temps' }).click()
      await page
        .getByText(`Vous demandez à garder le trousseau jusqu’au ${written(later)}.`, { exact: false })
        .waitFor()
      expect(await db.select().from(transferExtensions)).toHaveLength(0)

      // Back online, the outbox sends it, once, marked as replayed from the queue.
      await context.setOffline(false)
      await expect
        .poll(async () => db.select().from(transferExtensions), { timeout: 30_000 })
        .toMatchObject([
          { transferId: transfer.id, toDate: later.toString(), status: 'PENDING', fromQueue: true },
        ])
    })
    await stack.mailbox.nextMailTo(MANAGER, 0, 10_000, /garder le trousseau/)

    await stack.withPage(async (page) => {
      await stack.signIn(page, MANAGER)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/transfers')
      await page.getByText(`Demande à le garder jusqu’au ${written(later)}`).waitFor()
      await page.getByRole('button', { name: 'Accepter' }).click()
      await page.getByText(`Paul peut le garder jusqu’au ${written(later)}.`).waitFor()
      await expect
        .poll(() => page.getByRole('list', { name: 'Transferts' }).textContent(), { timeout: 10_000 })
        .toContain(written(later))
    })
    const [moved] = await db.select().from(transfers).where(eq(transfers.id, transfer.id))
    expect(moved?.toDate).toBe(later.toString())
    // (The raw message is read byte by byte: only its ASCII words are matched.)
    const mail = await stack.mailbox.nextMailTo(HOLDER, 0, 10_000, /a accept/)
    expect(mail.text).toContain('Loge gardien')

    await stack.withPage(async (page) => {
      await stack.signIn(page, HOLDER)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/app/transfers/requests/${transfer.id}`)
      await page
        .getByText(`Délai accordé : le trousseau est maintenant à rendre le ${written(later)}.`)
        .waitFor()
    })
  })
})
