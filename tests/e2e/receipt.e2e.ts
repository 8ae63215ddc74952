import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferReceipts, users } from '../../server/db/schema.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows, storedTags } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'iris.admin@example.com'
const FIELD = 'remi.terrain@example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

describe('the handover receipt, signed on a phone offline', () => {
  it('signs a pickup with the mouse on a 360 px screen offline, syncs, shows the receipt and its PDF', async () => {
    const { deps } = stack
    const db = deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Clés du Marais', {
      line1: '8 rue des Rosiers',
      postalCode: '75004',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const fieldId = await stack.addMember(organizationId, FIELD, 'MEMBER', 'Rémi')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'MRS', count: 1, name: 'Loge' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Loge du 8', tag!.id)
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
    const transfer = await createTransfer(deps, {
      organizationId,
      actor: admin!,
      keychainId,
      transfer: {
        recipient: { kind: 'member', userId: fieldId },
        fromDate: today('Europe/Paris').toString(),
        toDate: today('Europe/Paris').add({ days: 3 }).toString(),
      },
    })

    await stack.withPage(async (page, context) => {
      await page.setViewportSize({ width: 360, height: 740 })
      await stack.signInByCode(page, FIELD)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await expect.poll(async () => (await storedTags(page)).length, { timeout: 15_000 }).toBe(1)
      await expect.poll(async () => (await storedRows(page, 'transfers')).length, { timeout: 15_000 }).toBe(1)
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").waitFor()

      await context.setOffline(true)
      await page.reload()
      await page.getByTestId('offline-banner').waitFor()
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Loge du 8' }).waitFor()

      // The acceptance loads (from the service worker's cache: no network) and takes a signature by mouse.
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      const accept = page.getByRole('button', { name: 'Accepter et confirmer le retrait' })
      await accept.waitFor()
      expect(await accept.isDisabled()).toBe(true)
      const pad = page.getByTestId('signature-pad')
      await pad.scrollIntoViewIfNeeded()
      const box = (await pad.boundingBox())!
      expect(box.width).toBeLessThanOrEqual(360)
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height * 0.7)
      await page.mouse.down()
      for (const [x, y] of [
        [0.25, 0.2],
        [0.4, 0.8],
        [0.55, 0.25],
        [0.75, 0.7],
        [0.9, 0.4],
      ] as const) {
        await page.mouse.move(box.x + box.width * x, box.y + box.height * y, { steps: 4 })
      }
      await page.mouse.up()
      expect(await accept.isDisabled()).toBe(false)
      await accept.click()
      await page.getByTestId('waiting-to-sync').waitFor()
      expect(await db.select().from(transferReceipts)).toHaveLength(0)

      // Back online: the pickup and its acceptance go together, once.
      await context.setOffline(false)
      await expect.poll(() => page.getByTestId('waiting').count(), { timeout: 30_000 }).toBe(0)
      const receipts = await db
        .select()
        .from(transferReceipts)
        .where(eq(transferReceipts.transferId, transfer.id))
      expect(receipts).toHaveLength(1)
      expect(receipts[0]).toMatchObject({ recipientId: fieldId, fromQueue: true, typedName: null })
      expect(receipts[0]!.signature).toMatch(/^M\d+ \d+( L\d+ \d+){5,}/)

      // The transfer shows the receipt, with the signature and the PDF.
      await page.goto(`/app/transfers/requests/${transfer.id}`)
      await page.getByRole('heading', { name: 'Reçu de remise' }).waitFor()
      await page.getByTestId('receipt-accepted').getByText('Accepté par Rémi', { exact: false }).waitFor()
      await page.getByRole('img', { name: 'Signature de Rémi' }).waitFor()
      const link = page.getByRole('link', { name: 'Reçu (PDF)' })
      const href = (await link.getAttribute('href'))!
      expect(href).toBe(`/api/transfers/${transfer.id}/receipt/pdf`)
      const pdf = await context.request.get(href)
      expect(pdf.status()).toBe(200)
      expect(pdf.headers()['content-type']).toBe('application/pdf')
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-')
    })

    // Both parties got the PDF by mail; the recipient's is in French, their language.
    const mail = await stack.mailbox.nextMailTo(FIELD, 0, 15_000, /application\/pdf/)
    expect(mail.raw).toContain('recu-Loge-du-8.pdf')
    await stack.mailbox.nextMailTo(ADMIN, 0, 15_000, /application\/pdf/)
  })
})
