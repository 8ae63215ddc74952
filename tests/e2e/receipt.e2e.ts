import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transferReceipts, users } from '../../server/db/schema.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { showSyncStatus } from './account-menu.ts'
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
      await stack.signIn(page, FIELD)
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
      await showSyncStatus(page)
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

    // The admin finds the same receipt in the keychain's transfer list, opened in place.
    await stack.withPage(async (page, context) => {
      await stack.signIn(page, ADMIN)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto(`/app/keychains/${keychainId}`)
      const transfers = page.getByRole('list', { name: 'Transferts' })
      const row = transfers.getByRole('listitem').filter({ hasText: 'Rémi' })
      const toggle = row.getByRole('button', { name: 'Voir le reçu' })
      expect(await toggle.getAttribute('aria-expanded')).toBe('false')
      await toggle.click()
      const receipt = row.getByRole('region', { name: 'Reçu de remise' })
      await receipt.getByTestId('receipt-accepted').getByText('Accepté par Rémi', { exact: false }).waitFor()
      await receipt.getByRole('img', { name: 'Signature de Rémi' }).waitFor()
      // The same button now closes it.
      const hide = row.getByRole('button', { name: 'Masquer le reçu' })
      expect(await hide.getAttribute('aria-expanded')).toBe('true')
      const href = (await receipt.getByRole('link', { name: 'Reçu (PDF)' }).getAttribute('href'))!
      expect(href).toBe(`/api/transfers/${transfer.id}/receipt/pdf`)
      const pdf = await context.request.get(href)
      expect(pdf.status()).toBe(200)
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-')
    })

    // Both parties got the PDF by mail; the recipient's is in French, their language.
    const mail = await stack.mailbox.nextMailTo(FIELD, 0, 15_000, /application\/pdf/)
    expect(mail.raw).toContain('recu-Loge-du-8.pdf')
    await stack.mailbox.nextMailTo(ADMIN, 0, 15_000, /application\/pdf/)
  })

  it('signs with a finger on a 360 px touch phone: the stroke lands where the finger went, the page stays put', async () => {
    const { deps } = stack
    const db = deps.database.db
    const admin = 'zoe.admin@example.com'
    const field = 'lina.terrain@example.com'
    const organizationId = await organizationOfNewAdmin(stack, admin, 'Clés de Belleville', {
      line1: '3 rue Ramponeau',
      postalCode: '75020',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const fieldId = await stack.addMember(organizationId, field, 'MEMBER', 'Lina')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'BLV', count: 1, name: 'Atelier' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Atelier du 3', tag!.id)
    const [adminRow] = await db.select().from(users).where(eq(users.email, admin))
    const transfer = await createTransfer(deps, {
      organizationId,
      actor: adminRow!,
      keychainId,
      transfer: {
        recipient: { kind: 'member', userId: fieldId },
        fromDate: today('Europe/Paris').toString(),
        toDate: today('Europe/Paris').add({ days: 2 }).toString(),
      },
    })

    const context = await stack.browser.newContext({
      baseURL: stack.baseUrl,
      viewport: { width: 360, height: 740 },
      hasTouch: true,
      isMobile: true,
    })
    try {
      const page = await context.newPage()
      await stack.signIn(page, field)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
      })
      await expect.poll(async () => (await storedRows(page, 'transfers')).length, { timeout: 15_000 }).toBe(1)
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Atelier du 3' }).waitFor()
      await page.getByRole('button', { name: 'Confirmer le retrait' }).tap()
      const accept = page.getByRole('button', { name: 'Accepter et confirmer le retrait' })
      await accept.waitFor()
      const pad = page.getByTestId('signature-pad')
      await pad.scrollIntoViewIfNeeded()
      const box = (await pad.boundingBox())!
      const scrolled = await page.evaluate(() => window.scrollY)

      // A real touch drag through Chromium's input pipeline (touch start, moves, end), not synthetic DOM events.
      const cdp = await context.newCDPSession(page)
      const at = ([x, y]: readonly [number, number]) => ({
        x: box.x + box.width * x,
        y: box.y + box.height * y,
      })
      const path = [
        [0.1, 0.7],
        [0.2, 0.3],
        [0.35, 0.8],
        [0.5, 0.25],
        [0.65, 0.75],
        [0.8, 0.3],
        [0.9, 0.6],
      ] as const
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at(path[0])] })
      // Each segment in small moves, as a finger goes; then it rests before lifting (no fling left running).
      for (const [n, point] of path.slice(1).entries()) {
        const from = path[n]!
        for (let step = 1; step <= 4; step += 1) {
          const x = from[0] + ((point[0] - from[0]) * step) / 4
          const y = from[1] + ((point[1] - from[1]) * step) / 4
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [at([x, y])] })
        }
      }
      await page.waitForTimeout(150)
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
      await expect.poll(() => accept.isDisabled()).toBe(false)
      // The finger drew; the page did not scroll under it.
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled)
      await accept.tap()
      await page
        .getByText('Retrait confirmé.')
        .waitFor({ timeout: 15_000 })
        .catch(async (error) => {
          await page.screenshot({ path: 'test-results/receipt-touch.png', fullPage: true })
          throw error
        })

      await expect
        .poll(
          async () =>
            (await db.select().from(transferReceipts).where(eq(transferReceipts.transferId, transfer.id)))
              .length,
          {
            timeout: 15_000,
          },
        )
        .toBe(1)
      const [receipt] = await db
        .select()
        .from(transferReceipts)
        .where(eq(transferReceipts.transferId, transfer.id))
      expect(receipt).toMatchObject({ recipientId: fieldId, typedName: null })
      // One stroke, through the points the finger went, in the 600 × 200 box of the pad.
      const points = [...receipt!.signature!.matchAll(/([ML])(\d+) (\d+)/g)].map(([, op, x, y]) => ({
        op,
        x: Number(x),
        y: Number(y),
      }))
      expect(points.filter((point) => point.op === 'M')).toHaveLength(1)
      expect(points[0]).toMatchObject({ op: 'M' })
      // Every corner of the drag is on the stroke, in order, within 3 units of where the finger turned.
      let from = 0
      for (const [x, y] of path) {
        const hit = points.findIndex(
          (point, n) => n >= from && Math.abs(point.x - x * 600) <= 3 && Math.abs(point.y - y * 200) <= 3,
        )
        expect(hit, `the stroke passes by (${x * 600}, ${y * 200})`).toBeGreaterThanOrEqual(from)
        from = hit
      }
    } finally {
      await context.close()
    }
  })
})
