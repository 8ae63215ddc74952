import { mkdir, writeFile } from 'node:fs/promises'
import { and, eq, lt } from 'drizzle-orm'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkSignedPair } from '../../contract/handover-check.ts'
import { parseOffer } from '../../contract/handover-codes.ts'
import {
  custodyLog,
  deviceKeys,
  handovers,
  keychains,
  organizationEvents,
  users,
} from '../../server/db/schema.ts'
import { createKeychain } from '../../server/modules/keychains/service.ts'
import { type Stack, startStack } from './harness.ts'
import { storedRows } from './mirror.ts'
import { organizationOfNewAdmin } from './organizations.ts'

// Issue 41's browser target: two phones hand a keychain over with the network cut on both from the first code
// to the last; each shows the new holder at once and again after a reload offline; then each comes online in
// turn, and the server holds exactly one custody change, signed by both phones.

let stack: Stack
const ADMIN = 'agnes.bureau@example.com'
const GIVER = 'marie.nuit@example.com'
const RECEIVER = 'paul.matin@example.com'
const KEYCHAIN = 'Passe général'
/** The screenshots of the closing note's walk-through, one per phone per step. */
const SHOTS = 'reports/handover'

beforeAll(async () => {
  stack = await startStack()
  await mkdir(SHOTS, { recursive: true })
})

afterAll(async () => {
  await stack?.stop()
})

type Phone = { name: string; context: BrowserContext; page: Page; log: string[] }

/** A phone (360×740) signed in, its field mode started (service worker, mirror, device key). */
async function phone(name: string, email: string): Promise<Phone> {
  const context = await stack.newPhoneContext()
  const page = await context.newPage()
  const log: string[] = []
  page.on('console', (message) => log.push(`${message.type()}: ${message.text()}`))
  await stack.signIn(page, email, 'en')
  await page.waitForURL((url) => url.pathname === '/en/app')
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  return { name, context, page, log }
}

let shot = 0
const snap = (phone: Phone, step: string) =>
  phone.page.screenshot({ path: `${SHOTS}/${String(++shot).padStart(2, '0')}-${phone.name}-${step}.png` })

/** The code a phone shows as a QR, read from the page (as the other phone's camera would read it). */
async function shownCode(page: Page): Promise<string> {
  const shown = page.locator('main [data-handover-code]')
  await shown.locator('svg[data-qr-value]').waitFor()
  return (await shown.getAttribute('data-handover-code')) ?? ''
}

/** Types (or pastes) a code into a field and presses Enter, as a hardware scanner does. */
async function enter(page: Page, label: string, code: string) {
  const field = page.getByLabel(label, { exact: true })
  await field.fill(code)
  await field.press('Enter')
}

/** What the server answered the phone's outbox item of the handover (the outbox keeps sent items a while). */
async function sentHandover(page: Page): Promise<string | null> {
  const items = (await storedRows(page, 'outbox')).filter((item) => item.kind === 'handover')
  if (items.length !== 1 || items[0]!.status !== 'sent') return null
  return (items[0]!.result as { status: string }).status
}

const holderOn = (page: Page) => page.getByTestId('summary-holder').textContent()

describe('a keychain handed from phone to phone with no network', () => {
  it('changes hands on both phones offline, survives a reload, and reaches the server once, signed by both', {
    timeout: 240_000,
  }, async () => {
    const started = Date.now()
    const db = stack.deps.database.db
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Résidence des Tilleuls', {
      line1: '8 allée des Tilleuls',
      postalCode: '69003',
      city: 'Lyon',
    })
    const giverId = await stack.addMember(organizationId, GIVER, 'MEMBER', 'Marie')
    const receiverId = await stack.addMember(organizationId, RECEIVER, 'MEMBER', 'Paul')
    const [admin] = await db.select().from(users).where(eq(users.email, ADMIN))
    const keychain = await createKeychain(stack.deps, {
      organizationId,
      actorId: admin!.id,
      keychain: { name: KEYCHAIN, custodianId: giverId },
    })

    const giver = await phone('giver', GIVER)
    const receiver = await phone('receiver', RECEIVER)
    try {
      // Both phones register their device key (the admin's browser did too), then each syncs once more to learn
      // the other's.
      const phoneKeys = async () =>
        (await db.select().from(deviceKeys)).filter(
          (key) => key.userId === giverId || key.userId === receiverId,
        )
      await expect
        .poll(async () => (await phoneKeys()).map((key) => key.userId).sort(), { timeout: 30_000 })
        .toEqual([giverId, receiverId].sort())
      const registered = (await phoneKeys()).map((key) => key.id)
      for (const each of [giver, receiver]) {
        await each.page.reload()
        await expect
          .poll(
            async () => {
              const mirrored = new Set((await storedRows(each.page, 'deviceKeys')).map((key) => key.id))
              return registered.every((id) => mirrored.has(id))
            },
            { timeout: 30_000 },
          )
          .toBe(true)
      }
      // The receiver starts on the scan page; the giver opens the keychain's page online (its answer is kept in
      // the phone's copy, with the last custody change the offer will name), then again once the network is gone,
      // where "Hand over" shows to the one who holds it.
      await giver.page.goto(`/en/app/keychains/${keychain.id}`)
      await expect.poll(() => holderOn(giver.page)).toBe('Marie')
      await receiver.page.goto('/en/app/scan')
      await receiver.page.getByRole('main').getByRole('link', { name: 'Receive a keychain' }).waitFor()
      await giver.page.waitForLoadState('networkidle')
      await receiver.page.waitForLoadState('networkidle')

      // The network goes, on both phones, for the whole handshake.
      await giver.context.setOffline(true)
      await receiver.context.setOffline(true)
      await giver.page.goto(`/en/app/keychains/${keychain.id}`)
      await expect.poll(() => holderOn(giver.page)).toBe('Marie')
      await giver.page.getByRole('link', { name: 'Hand over' }).waitFor()
      await snap(giver, 'holds-it-offline')

      await receiver.page.getByRole('main').getByRole('link', { name: 'Receive a keychain' }).click()
      const receiveCode = await shownCode(receiver.page)
      expect(receiveCode).toMatch(/^R-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/)
      expect(await receiver.page.getByText(receiveCode, { exact: true }).isVisible()).toBe(true)
      await snap(receiver, 'receive-code')

      await giver.page.getByRole('link', { name: 'Hand over' }).click()
      await enter(giver.page, 'Receive code', receiveCode)
      await giver.page.getByRole('heading', { name: 'Let Paul scan this' }).waitFor()
      const offer = await shownCode(giver.page)
      expect(offer.startsWith(`TRH1|O|${organizationId}|${keychain.id}|${giverId}|`)).toBe(true)
      await snap(giver, 'offer')

      await enter(receiver.page, 'Offer code', offer)
      await receiver.page.getByText(`You now hold ${KEYCHAIN}.`).waitFor()
      await receiver.page.getByRole('heading', { name: 'Show this to Marie' }).waitFor()
      const acceptance = await shownCode(receiver.page)
      expect(acceptance.startsWith('TRH1|A|')).toBe(true)
      await snap(receiver, 'acceptance')

      await enter(giver.page, 'Acceptance code', acceptance)
      await giver.page.getByText(`Paul now holds ${KEYCHAIN}.`).waitFor()
      await snap(giver, 'done')

      // Nothing has reached the server yet.
      expect(await db.select().from(handovers).where(eq(handovers.organizationId, organizationId))).toEqual(
        [],
      )

      // Both receipts, then a reload of each page offline: both phones still agree.
      for (const each of [giver, receiver]) {
        await each.page.getByRole('link', { name: 'See the receipt' }).click()
        await each.page.getByRole('heading', { name: `Handover of ${KEYCHAIN}` }).waitFor()
        await each.page.reload()
        await each.page.getByText('Not sent yet').waitFor()
        expect(await each.page.getByTestId('receipt-giver').textContent()).toBe('Marie')
        expect(await each.page.getByTestId('receipt-receiver').textContent()).toBe('Paul')
        await snap(each, 'receipt-offline-reloaded')
        await each.page.goto(`/en/app/keychains/${keychain.id}`)
        await expect.poll(() => holderOn(each.page), { timeout: 15_000 }).toBe('Paul')
        await snap(each, 'keychain-offline')
      }
      // The new holder may hand it on; the former one no longer can.
      expect(await receiver.page.getByRole('link', { name: 'Hand over' }).count()).toBe(1)
      expect(await giver.page.getByRole('link', { name: 'Hand over' }).count()).toBe(0)

      // The giver's phone comes online first: the handover is applied.
      await giver.context.setOffline(false)
      await expect
        .poll(
          async () =>
            (await db.select().from(handovers).where(eq(handovers.organizationId, organizationId))).length,
          {
            timeout: 30_000,
          },
        )
        .toBe(1)
      await expect.poll(() => sentHandover(giver.page), { timeout: 30_000 }).toBe('APPLIED')
      await giver.page.goto(`/en/app/keychains/${keychain.id}`)
      await expect.poll(() => holderOn(giver.page)).toBe('Paul')
      // The custody log says how it changed hands, in the reader's words.
      await giver.page.getByText('handed over from phone to phone').waitFor()
      await snap(giver, 'online-applied')

      // Then the receiver's: the same handover, not a second one.
      await receiver.context.setOffline(false)
      await expect.poll(() => sentHandover(receiver.page), { timeout: 30_000 }).toBe('APPLIED')
      const [{ id: handoverId }] = (await db
        .select({ id: handovers.id })
        .from(handovers)
        .where(eq(handovers.organizationId, organizationId))) as [{ id: string }]
      await receiver.page.goto(`/en/app/handovers/${handoverId}`)
      await receiver.page.getByText(`Recorded by the server: Paul holds ${KEYCHAIN}.`).waitFor()
      await snap(receiver, 'online-recorded')
      // Its receipt, as the links on that page download it: the signed JSON and the PDF.
      const receipt = await receiver.page.request.get(`/api/handovers/${handoverId}/receipt.json`)
      expect(receipt.status()).toBe(200)
      expect(await receipt.json()).toMatchObject({ handoverId, offer, acceptance })
      const pdf = await receiver.page.request.get(`/api/handovers/${handoverId}/receipt.pdf`)
      expect([pdf.status(), pdf.headers()['content-type']]).toEqual([200, 'application/pdf'])

      // The server: one handover, applied, with the codes both phones signed; one custody change; one event.
      const stored = await db.select().from(handovers).where(eq(handovers.organizationId, organizationId))
      expect(stored).toHaveLength(1)
      expect(stored[0]).toMatchObject({
        status: 'APPLIED',
        reason: null,
        keychainId: keychain.id,
        giverId,
        receiverId,
        offer,
        acceptance,
        sentById: giverId,
      })
      const keys = await db.select().from(deviceKeys)
      const checked = await checkSignedPair(offer, acceptance, (id) => {
        const key = keys.find((each) => each.id === id)
        return (
          key && {
            ...key,
            expiresAt: key.expiresAt.toISOString(),
            revokedAt: key.revokedAt?.toISOString() ?? null,
          }
        )
      })
      expect(checked.ok).toBe(true)
      const changes = await db
        .select()
        .from(custodyLog)
        .where(and(eq(custodyLog.keychainId, keychain.id), eq(custodyLog.reason, 'handover')))
      expect(changes).toHaveLength(1)
      expect(changes[0]).toMatchObject({ fromUserId: giverId, toUserId: receiverId })
      // The offer named the keychain's custody change before it (its creation with Marie as holder), as the
      // giver's phone had it from the keychain's page.
      const before = await db
        .select({ seq: custodyLog.seq })
        .from(custodyLog)
        .where(and(eq(custodyLog.keychainId, keychain.id), lt(custodyLog.seq, changes[0]!.seq)))
      expect(before.length).toBeGreaterThan(0)
      expect(parseOffer(offer)?.value.base).toBe(Math.max(...before.map((row) => row.seq)))
      const [held] = await db.select().from(keychains).where(eq(keychains.id, keychain.id))
      expect(held!.custodianId).toBe(receiverId)
      const events = await db
        .select()
        .from(organizationEvents)
        .where(
          and(
            eq(organizationEvents.organizationId, organizationId),
            eq(organizationEvents.kind, 'keychain.handed_over'),
          ),
        )
      expect(events).toHaveLength(1)
      expect(events[0]!.payload).toMatchObject({ offer, acceptance })
      console.info(`handover e2e: ${((Date.now() - started) / 1000).toFixed(1)} s`)
    } catch (error) {
      await mkdir('test-results', { recursive: true })
      for (const each of [giver, receiver]) {
        await each.page
          .screenshot({ path: `test-results/handover-${each.name}.png`, fullPage: true })
          .catch(() => undefined)
        await writeFile(`test-results/handover-${each.name}.log`, each.log.join('\n'))
      }
      throw error
    } finally {
      await giver.context.close()
      await receiver.context.close()
    }
  })
})
