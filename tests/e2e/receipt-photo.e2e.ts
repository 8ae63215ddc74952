import { crc32, deflateSync } from 'node:zlib'
import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PHOTO_DATA_URL_PREFIX,
  PHOTO_MAX_BYTES,
  PHOTO_MAX_EDGE,
  type Receipt,
} from '../../contract/receipts.ts'
import { transferReceipts, users } from '../../server/db/schema.ts'
import { jpegSize } from '../../server/modules/receipts/photo.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { showSyncStatus } from './account-menu.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows, storedTags } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

let stack: Stack
const ADMIN = 'ines.admin@example.com'
const FIELD = 'remi.photo@example.com'

beforeAll(async () => {
  stack = await startStack()
})

afterAll(async () => {
  await stack?.stop()
})

/**
 * A camera-sized PNG (`width` × `height`, RGB): a gradient with grain, the kind of picture a phone takes, far over
 * the receipt's limits (several MB, 4000 px).
 */
function bigPhoto(width: number, height: number): Buffer {
  const row = 1 + width * 3
  const raw = Buffer.alloc(row * height)
  // Grain in 6 × 6 pixel cells: detail a JPEG has to spend bytes on, in a PNG of a few megabytes.
  const cells = Math.ceil(width / 6)
  const grains = new Uint8Array(cells)
  let seed = 42
  for (let y = 0; y < height; y += 1) {
    raw[y * row] = 0 // no filter
    if (y % 6 === 0)
      for (let cell = 0; cell < cells; cell += 1) {
        seed = (seed * 1_103_515_245 + 12_345) >>> 0
        grains[cell] = (seed >>> 24) & 31
      }
    for (let x = 0; x < width; x += 1) {
      const grain = grains[Math.floor(x / 6)]!
      const at = y * row + 1 + x * 3
      raw[at] = Math.floor((x * 200) / width) + grain
      raw[at + 1] = Math.floor((y * 200) / height) + grain
      raw[at + 2] = 120 + grain
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(body))
    return Buffer.concat([length, body, crc])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bits per channel
  header[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 1 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

describe('the photo of the keys on a handover receipt', () => {
  // About 25 s on a quiet machine (sign-in, sync, a 3 MB file decoded and resized in the page), 72 s beside
  // another browser file on two busy cores: three times the default.
  it('takes a 4000 × 3000 photo offline, resizes it on the phone within the limits, syncs it, and shows it on the receipt and in its PDF', async () => {
    const { deps } = stack
    const db = deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Clés de la Bastille', {
      line1: '12 rue de la Roquette',
      postalCode: '75011',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const fieldId = await stack.addMember(organizationId, FIELD, 'MEMBER', 'Rémi')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'BST', count: 1, name: 'Cour' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Cour du 12', tag!.id)
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
    const original = bigPhoto(4000, 3000)
    // What the camera gives is far over what the server takes.
    expect(original.length).toBeGreaterThan(PHOTO_MAX_BYTES * 4)

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

      // Offline from here: the acceptance, its resizing and the queued pickup need no network.
      await context.setOffline(true)
      await page.reload()
      await page.getByTestId('offline-banner').waitFor()
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('heading', { level: 2, name: 'Cour du 12' }).waitFor()
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      const form = page.getByRole('form', { name: 'Accepter le trousseau' })
      await form.waitFor()
      await form.getByLabel('Votre nom').fill('Rémi Terrain')
      await form
        .getByLabel('Photo des clés (facultative)')
        .setInputFiles({ name: 'IMG_2041.png', mimeType: 'image/png', buffer: original })
      const preview = form.getByRole('img', { name: 'Les clés telles que remises' })
      await preview.waitFor({ timeout: 30_000 })
      // The preview is the resized JPEG, not the file chosen.
      const shown = (await preview.getAttribute('src'))!
      expect(shown.startsWith(PHOTO_DATA_URL_PREFIX)).toBe(true)
      const resized = Buffer.from(shown.slice(PHOTO_DATA_URL_PREFIX.length), 'base64')
      expect(resized.length).toBeLessThanOrEqual(PHOTO_MAX_BYTES)
      expect(jpegSize(resized)).toEqual({ width: 1280, height: 960 })

      const accept = form.getByRole('button', { name: 'Accepter et confirmer le retrait' })
      expect(await accept.isDisabled()).toBe(false)
      await accept.click()
      await page.getByTestId('waiting-to-sync').waitFor()
      expect(await db.select().from(transferReceipts)).toHaveLength(0)

      // Back online: the pickup goes with its acceptance and the photo the phone made, byte for byte.
      await context.setOffline(false)
      await showSyncStatus(page)
      await expect.poll(() => page.getByTestId('waiting').count(), { timeout: 30_000 }).toBe(0)
      const receipts = await db
        .select()
        .from(transferReceipts)
        .where(eq(transferReceipts.transferId, transfer.id))
      expect(receipts).toHaveLength(1)
      expect(receipts[0]).toMatchObject({ recipientId: fieldId, fromQueue: true, typedName: 'Rémi Terrain' })
      const stored = Buffer.from(receipts[0]!.photo!)
      expect(stored.equals(resized)).toBe(true)
      expect(stored.length).toBeLessThanOrEqual(PHOTO_MAX_BYTES)
      const size = jpegSize(stored)!
      expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(PHOTO_MAX_EDGE)
      expect(size.width / size.height).toBeCloseTo(4 / 3, 2)

      // The receipt's API answers the same photo.
      const answer = await context.request.get(`/api/transfers/${transfer.id}/receipt`)
      expect(answer.status()).toBe(200)
      const receipt = (await answer.json()) as Receipt
      expect(receipt.photo).toBe(`${PHOTO_DATA_URL_PREFIX}${stored.toString('base64')}`)

      // The transfer's receipt shows it, drawn at the size it was stored.
      await page.goto(`/app/transfers/requests/${transfer.id}`)
      await page.getByRole('heading', { name: 'Reçu de remise' }).waitFor()
      const photo = page.getByRole('img', { name: 'Les clés telles que remises' })
      await photo.waitFor()
      await expect
        .poll(() => photo.evaluate((image: HTMLImageElement) => [image.naturalWidth, image.naturalHeight]))
        .toEqual([1280, 960])

      // The PDF carries the very JPEG (embedded as it is, DCTDecode), at its size.
      const pdf = await context.request.get(`/api/transfers/${transfer.id}/receipt/pdf`)
      expect(pdf.status()).toBe(200)
      const bytes = await pdf.body()
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-')
      expect(bytes.indexOf(stored)).toBeGreaterThan(0)
      const images = (bytes.toString('latin1').match(/<<[^<>]*\/Subtype\s*\/Image[^<>]*>>/g) ?? []).map(
        (dict) => [/\/Width\s+(\d+)/.exec(dict)?.[1], /\/Height\s+(\d+)/.exec(dict)?.[1]],
      )
      expect(images).toEqual([['1280', '960']])
    })
  }, 180_000)
})
