import { mkdirSync } from 'node:fs'
import { today } from '@internationalized/date'
import { eq } from 'drizzle-orm'
import type { BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pushSubscriptions, users } from '../../server/db/schema.ts'
import { createTransfer } from '../../server/modules/transfers/service.ts'
import { startPushReceiver } from '../server/push-receiver.ts'
import { saveFailure } from './failure.ts'
import { type Stack, startStack } from './harness.ts'
import { organizationOfNewAdmin } from './organizations.ts'

// Push notifications end to end: the profile turns push on after a tap, a transfer authorized to the person
// reaches a push service on the loopback (which decrypts it as the browser would), and the same message delivered
// to the phone's service worker through the DevTools protocol shows a notification whose tap opens the transfer,
// offline too. Headless Chromium has no push service of its own: `PushManager.subscribe()` answers the loopback
// service's subscription (an init script), and the tap runs the worker's own handler (no browser lets a script
// click a notification). The full Chromium: the headless shell has no Push API at all.

let stack: Stack
let push: Awaited<ReturnType<typeof startPushReceiver>>
const ADMIN = 'lea.admin@example.com'
const PAUL = 'paul.terrain@example.com'
const SHOTS = 'reports/push'

beforeAll(async () => {
  stack = await startStack({}, { browser: 'chromium' })
  push = await startPushReceiver()
  mkdirSync(SHOTS, { recursive: true })
})

afterAll(async () => {
  await push?.close()
  await stack?.stop()
})

/** A phone whose browser subscribes to the loopback push service, notifications allowed unless told. */
async function phoneSubscribedTo(
  device: ReturnType<typeof push.device>,
  { allowed = true } = {},
): Promise<BrowserContext> {
  const context = await stack.newPhoneContext()
  if (allowed) await context.grantPermissions(['notifications'], { origin: stack.baseUrl })
  await context.addInitScript((subscription) => {
    let subscribed: unknown = null
    const made = {
      endpoint: subscription.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true },
      toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
      unsubscribe: async () => {
        subscribed = null
        return true
      },
    }
    PushManager.prototype.getSubscription = async () => subscribed as PushSubscription | null
    PushManager.prototype.subscribe = async () => {
      subscribed = made
      return made as unknown as PushSubscription
    }
  }, device)
  return context
}

/** The service worker registration's id, for the DevTools protocol's push delivery. */
async function registrationIdOf(page: Page): Promise<{ send: (data: string) => Promise<void> }> {
  const cdp = await page.context().newCDPSession(page)
  const ids = new Map<string, string>()
  cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
    for (const each of registrations) ids.set(each.scopeURL, each.registrationId)
  })
  await cdp.send('ServiceWorker.enable')
  await expect.poll(() => ids.get(`${stack.baseUrl}/`), { timeout: 15_000 }).toBeDefined()
  const registrationId = ids.get(`${stack.baseUrl}/`)!
  return {
    send: async (data) => {
      await cdp.send('ServiceWorker.deliverPushMessage', { origin: stack.baseUrl, registrationId, data })
    },
  }
}

const notificationsOf = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((notification) => ({
      title: notification.title,
      body: notification.body,
      data: notification.data as unknown,
    })),
  )

describe('push notifications on a phone', () => {
  it('turns push on after a tap, receives a transfer in French within 5 s, and opens it from the notification, offline too', async () => {
    const { deps } = stack
    const organizationId = await organizationOfNewAdmin(stack, ADMIN, 'Régie Voltaire', {
      line1: '12 boulevard Voltaire',
      postalCode: '75011',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const paulId = await stack.addMember(organizationId, PAUL, 'MEMBER', 'Paul')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'VOL', count: 1, name: 'Cave' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Cave Voltaire', tag!.id)

    const device = push.device()
    const context = await phoneSubscribedTo(device)
    const log: string[] = []
    try {
      const page = await context.newPage()
      page.on('console', (message) => log.push(`${message.type()}: ${message.text()}`))
      page.on('response', (response) =>
        log.push(`${response.status()} ${response.request().method()} ${response.url()}`),
      )
      await stack.signIn(page, PAUL)
      await page.waitForURL((url) => url.pathname === '/app')
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready
        if (!navigator.serviceWorker.controller)
          await new Promise((resolve) =>
            navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }),
          )
      })

      // The profile: the permission is asked only after the tap; the device is listed once the server has it.
      await page.goto('/app/profile')
      await page.getByRole('button', { name: 'Activer les notifications sur cet appareil' }).click()
      await page.getByText('Les notifications sont activées sur cet appareil.').waitFor()
      await page.getByRole('list', { name: 'Appareils qui reçoivent les notifications' }).waitFor()
      const [stored] = await deps.database.db
        .select()
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, paulId))
      expect(stored).toMatchObject({
        endpoint: device.endpoint,
        p256dh: device.keys.p256dh,
        auth: device.keys.auth,
      })
      await page.getByLabel('Retraits et retours attendus (rappels, retards)').selectOption('PUSH')
      await page.screenshot({ path: `${SHOTS}/01-profile-notifications.png`, fullPage: true })

      // An admin authorizes a transfer to Paul: the push service has it, decrypted, within 5 s.
      const [admin] = await deps.database.db.select().from(users).where(eq(users.email, ADMIN))
      const authorizedAt = Date.now()
      const transfer = await createTransfer(deps, {
        organizationId,
        actor: admin!,
        keychainId,
        transfer: {
          recipient: { kind: 'member', userId: paulId },
          fromDate: today('Europe/Paris').toString(),
          toDate: today('Europe/Paris').add({ days: 2 }).toString(),
        },
      })
      deps.jobs.nudge()
      const [received] = await push.waitFor(device.path, 1, 5000)
      expect(received!.at - authorizedAt).toBeLessThan(5000)
      const message = received!.payload as { title: string; body: string; url: string; tag: string }
      expect(message).toMatchObject({
        title: expect.stringContaining('« Cave Voltaire » vous attend'),
        url: `/app/transfers/requests/${transfer.id}`,
      })

      // The same message reaches the phone's service worker: a notification, in French.
      const worker = await registrationIdOf(page)
      await worker.send(JSON.stringify(message))
      await expect
        .poll(() => notificationsOf(page), { timeout: 10_000 })
        .toEqual([{ title: message.title, body: message.body, data: { url: message.url } }])

      // Offline, its tap opens the transfer in the open window.
      await context.setOffline(true)
      const [serviceWorker] = context.serviceWorkers()
      await serviceWorker!.evaluate(async () => {
        const self = globalThis as unknown as {
          registration: ServiceWorkerRegistration
          trousseauOpenFromNotification: (notification: Notification) => Promise<unknown>
        }
        const [notification] = await self.registration.getNotifications()
        await self.trousseauOpenFromNotification(notification!)
      })
      await page.waitForURL((url) => url.pathname === `/app/transfers/requests/${transfer.id}`)
      await page.locator('main').first().waitFor()
      expect(await notificationsOf(page)).toEqual([])
      await page.screenshot({ path: `${SHOTS}/02-opened-from-notification-offline.png`, fullPage: true })
    } catch (error) {
      const [page] = context.pages()
      if (page) await saveFailure(page, log)
      throw error
    } finally {
      await context.close()
    }
  })

  it('offers push after a first pickup, and turns it on with a tap', async () => {
    const { deps } = stack
    const organizationId = await organizationOfNewAdmin(stack, 'ines.admin@example.com', 'Régie Oberkampf', {
      line1: '5 rue Oberkampf',
      postalCode: '75011',
      city: 'Paris',
    })
    await stack.subscribe(organizationId)
    const marcId = await stack.addMember(organizationId, 'marc.terrain@example.com', 'MEMBER', 'Marc')
    const [tag] = await stack.createTags(organizationId, { alphaCode: 'OBE', count: 1, name: 'Cave' })
    const keychainId = await stack.createKeychainWithTag(organizationId, 'Cave Oberkampf', tag!.id)
    const [admin] = await deps.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'ines.admin@example.com'))
    await createTransfer(deps, {
      organizationId,
      actor: admin!,
      keychainId,
      transfer: {
        recipient: { kind: 'member', userId: marcId },
        fromDate: today('Europe/Paris').toString(),
        toDate: today('Europe/Paris').add({ days: 2 }).toString(),
      },
    })
    const device = push.device()
    const context = await phoneSubscribedTo(device, { allowed: false })
    const log: string[] = []
    try {
      const page = await context.newPage()
      page.on('console', (message) => log.push(`${message.type()}: ${message.text()}`))
      await stack.signIn(page, 'marc.terrain@example.com')
      await page.waitForURL((url) => url.pathname === '/app')
      await page.goto('/app/scan')
      await page.getByLabel("Code ou lien de l'étiquette").fill(tag!.code)
      await page.keyboard.press('Enter')
      await page.getByRole('button', { name: 'Confirmer le retrait' }).click()
      await page.getByLabel('Votre nom').fill('Marc Terrain')
      await page.getByRole('button', { name: 'Accepter et confirmer le retrait' }).click()
      const offer = page.getByRole('region', { name: 'Notifications' })
      await offer.waitFor()
      await page.screenshot({ path: `${SHOTS}/03-offer-after-pickup.png`, fullPage: true })
      // The person says yes to the browser's question that follows the tap.
      await context.grantPermissions(['notifications'], { origin: stack.baseUrl })
      await offer.getByRole('button', { name: 'Activer les notifications' }).click()
      await page.getByText('Les notifications sont activées sur cet appareil.').waitFor()
      await expect
        .poll(async () =>
          (
            await deps.database.db
              .select()
              .from(pushSubscriptions)
              .where(eq(pushSubscriptions.userId, marcId))
          ).map((row) => row.endpoint),
        )
        .toEqual([device.endpoint])
    } catch (error) {
      const [page] = context.pages()
      if (page) await saveFailure(page, log)
      throw error
    } finally {
      await context.close()
    }
  })
})
