import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { NoticeSettings, PushSubscription } from '../../../contract/notices.ts'
import { DAY, HOUR } from '../../../tests/server/clock.ts'
import { handoverWorld, refusalOf, signedPair, submitPair } from '../../../tests/server/handovers.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { startPushReceiver } from '../../../tests/server/push-receiver.ts'
import { authorize, dates, pickup, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { walk } from '../../../tests/server/walk.ts'
import { jobs, pushSubscriptions, users } from '../../db/schema.ts'
import { calendarDayIn } from '../../shared/time-zones.ts'
import { subscribe } from './subscriptions.ts'

const t = setupTestAppAtEpoch({ clearMail: true })
let push: Awaited<ReturnType<typeof startPushReceiver>>
beforeAll(async () => {
  push = await startPushReceiver()
})
afterAll(() => push.close())
beforeEach(async () => {
  await t.db.delete(jobs)
})

const subscribeDevice = (cookie: string, device: ReturnType<typeof push.device>, name = 'Pixel 8') =>
  t.put('/api/push-subscriptions', { cookie, json: { endpoint: device.endpoint, keys: device.keys, name } })

const listOf = async (cookie: string) =>
  (await (await t.get('/api/push-subscriptions', { cookie })).json()) as {
    publicKey: string
    data: PushSubscription[]
  }

const received = (path: string) => push.received.filter((each) => each.path === path)

/** A transfer authorized to a contact with two devices, whose push service answers each with its status. */
async function authorizedToTwoDevices(first: number, second: number) {
  const world = await transferWorld(t)
  const devices = [push.device(), push.device()] as const
  for (const device of devices) await subscribeDevice(world.contact.cookie, device)
  push.answer(devices[0].path, first)
  push.answer(devices[1].path, second)
  const response = await authorize(
    t,
    world.admin.cookie,
    world.keychain.id,
    dates(toMember(world.contact.id)),
  )
  expect(response.status).toBe(201)
  await t.runJobs()
  return { world, devices }
}

const settingsOf = async (cookie: string) =>
  ((await (await t.get('/api/notice-settings', { cookie })).json()) as NoticeSettings).channels

describe('push subscriptions', () => {
  it('subscribes a device (201), refreshes it on the next start (200), lists it, and removes it', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const device = push.device()
    const first = await subscribeDevice(cookie, device)
    expect(first.status).toBe(201)
    const made = (await first.json()) as PushSubscription
    expect(made).toMatchObject({ name: 'Pixel 8', service: new URL(push.origin).host })
    t.clock.advance(HOUR)
    const again = await subscribeDevice(cookie, device, 'Pixel 8 Pro')
    expect(again.status).toBe(200)
    expect(await again.json()).toEqual({
      ...made,
      name: 'Pixel 8 Pro',
      seenAt: t.clock.now().toISOString(),
    })
    const list = await listOf(cookie)
    expect(list.publicKey).toMatch(/^[A-Za-z0-9_-]{87}$/)
    expect(list.data).toEqual([{ ...made, name: 'Pixel 8 Pro', seenAt: t.clock.now().toISOString() }])
    // The key pair made for this server is kept for the next start, readable by its owner only.
    const file = await stat(join(t.deps.config.dataDir, 'vapid.json'))
    expect(file.mode & 0o777).toBe(0o600)

    const other = await t.signIn(uniqueEmail())
    expect((await t.delete(`/api/push-subscriptions/${made.id}`, { cookie: other.cookie })).status).toBe(404)
    expect((await t.delete(`/api/push-subscriptions/${made.id}`, { cookie })).status).toBe(204)
    expect((await listOf(cookie)).data).toEqual([])
    expect((await t.delete(`/api/push-subscriptions/${made.id}`, { cookie })).status).toBe(404)
  })

  it('refuses a malformed subscription with the field at fault', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const device = push.device()
    for (const [json, path] of [
      [{ endpoint: 'not a url', keys: device.keys, name: 'P' }, 'endpoint'],
      [{ endpoint: 'ftp://push.example/1', keys: device.keys, name: 'P' }, 'endpoint'],
      [{ endpoint: device.endpoint, keys: { ...device.keys, p256dh: 'short' }, name: 'P' }, 'keys.p256dh'],
      [{ endpoint: device.endpoint, keys: { ...device.keys, auth: '' }, name: 'P' }, 'keys.auth'],
      [{ endpoint: device.endpoint, keys: device.keys, name: ' ' }, 'name'],
    ] as const) {
      const response = await t.put('/api/push-subscriptions', { cookie, json })
      expect(response.status, JSON.stringify(json)).toBe(400)
      const { error } = (await response.json()) as { error: { code: string; issues: { path: string }[] } }
      expect(error.code).toBe('validation_failed')
      expect(error.issues.map((issue) => issue.path)).toContain(path)
    }
  })

  it('moves a browser to whoever signs in on it, and keeps the ten devices seen last', async () => {
    const one = await t.signIn(uniqueEmail())
    const two = await t.signIn(uniqueEmail())
    const shared = push.device()
    await subscribeDevice(one.cookie, shared)
    expect((await subscribeDevice(two.cookie, shared)).status).toBe(200)
    expect((await listOf(one.cookie)).data).toEqual([])
    expect((await listOf(two.cookie)).data).toHaveLength(1)

    const names: string[] = []
    for (let i = 1; i <= 11; i++) {
      t.clock.advance(1000)
      await subscribeDevice(one.cookie, push.device(), `Device ${i}`)
      names.push(`Device ${i}`)
    }
    expect((await listOf(one.cookie)).data.map((each) => each.name)).toEqual(names.slice(1).reverse())
  })

  it('takes only https endpoints on a server served over https', async () => {
    const { profile } = await t.signIn(uniqueEmail())
    const device = push.device()
    const production = { ...t.deps, config: { ...t.deps.config, publicUrl: 'https://keys.example.com' } }
    await expect(
      subscribe(production, profile.id, { endpoint: device.endpoint, keys: device.keys, name: 'P' }),
    ).rejects.toMatchObject({ status: 400, message: 'endpoint must be an https:// address.' })
  })

  it('is refused to an API token', async () => {
    const response = await t.get('/api/push-subscriptions', {
      headers: { authorization: 'Bearer tro_not-a-session' },
    })
    expect([401, 403]).toContain(response.status)
  })
})

describe('notice settings', () => {
  it('answers the defaults, changes only the kinds named, and refuses an unknown kind or channel', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    expect(await settingsOf(cookie)).toEqual({
      transfer_authorized: 'BOTH',
      reminder: 'BOTH',
      extension_answered: 'BOTH',
      lent_overdue: 'BOTH',
      found_report: 'BOTH',
      stocktake_due: 'BOTH',
      handover: 'PUSH',
      member_left: 'BOTH',
    })
    const changed = await t.put('/api/notice-settings', {
      cookie,
      json: { channels: { reminder: 'PUSH', found_report: 'NONE' } },
    })
    expect(changed.status).toBe(200)
    const after = await settingsOf(cookie)
    expect(after).toMatchObject({ reminder: 'PUSH', found_report: 'NONE', transfer_authorized: 'BOTH' })
    await t.put('/api/notice-settings', { cookie, json: { channels: { reminder: 'EMAIL' } } })
    expect(await settingsOf(cookie)).toEqual({ ...after, reminder: 'EMAIL' })

    for (const channels of [{ reminder: 'SMS' }, { gossip: 'PUSH' }]) {
      const refused = await t.put('/api/notice-settings', { cookie, json: { channels } })
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('validation_failed')
    }
  })

  it('keeps reminder mails off while the profile says so, whatever the channel', async () => {
    const { cookie, profile } = await t.signIn(uniqueEmail())
    await t.db.update(users).set({ reminderMails: false }).where(eq(users.id, profile.id))
    expect((await settingsOf(cookie)).reminder).toBe('PUSH')
    await t.put('/api/notice-settings', { cookie, json: { channels: { reminder: 'EMAIL' } } })
    expect((await settingsOf(cookie)).reminder).toBe('NONE')
    await t.db.update(users).set({ reminderMails: true }).where(eq(users.id, profile.id))
    expect((await settingsOf(cookie)).reminder).toBe('EMAIL')
  })
})

describe('a transfer authorized to me, pushed', () => {
  /** The contact with two devices subscribed and a channel for `transfer_authorized`; then the authorization. */
  async function authorizedWith(channel: string, locale: 'fr' | 'en' = 'fr') {
    const world = await transferWorld(t)
    await t.db.update(users).set({ locale }).where(eq(users.id, world.contact.id))
    const phone = push.device()
    const tablet = push.device()
    await subscribeDevice(world.contact.cookie, phone)
    await subscribeDevice(world.contact.cookie, tablet, 'Tablet')
    await t.put('/api/notice-settings', {
      cookie: world.contact.cookie,
      json: { channels: { transfer_authorized: channel } },
    })
    const before = Date.now()
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id), '2030-01-17', '2030-01-19'),
    )
    expect(response.status).toBe(201)
    const transfer = (await response.json()) as { id: string }
    return { ...world, phone, tablet, before, transfer }
  }

  it('reaches each device decrypted, in the reader’s language, signed by the server, within 5 s', async () => {
    const { phone, tablet, before, transfer, contact } = await authorizedWith('BOTH', 'en')
    const [received] = await push.waitFor(phone.path)
    expect(received!.at - before).toBeLessThan(5000)
    expect(received!.payload).toEqual({
      title: 'The keychain “Cave” is waiting for you from 17 January 2030',
      body: 'Agence lends you a keychain from 17 January 2030 to 19 January 2030.',
      url: `/en/app/transfers/requests/${transfer.id}`,
      tag: `transfer_authorized:transfer:${transfer.id}`,
      badge: 0,
    })
    expect(t.mail.to(contact.email)).toHaveLength(1)
    expect((received!.payload as { title: string }).title).toBe(t.mail.to(contact.email)[0]!.subject)
    expect(await push.waitFor(tablet.path)).toHaveLength(1)
    const { publicKey } = await listOf(contact.cookie)
    expect(received!.vapid).toMatchObject({ aud: push.origin, sub: 'mailto:no-reply@localhost', publicKey })
    expect(received!.vapid.exp * 1000).toBeGreaterThan(Date.now())
    expect(received!.vapid.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * HOUR)
    expect(received!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: '86400' })
    expect(received!.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/)
  })

  it('speaks French to a French reader', async () => {
    const { phone, transfer, contact } = await authorizedWith('PUSH', 'fr')
    const [received] = await push.waitFor(phone.path)
    expect(received!.payload).toEqual({
      title: 'Le trousseau « Cave » vous attend à partir du 17 janvier 2030',
      body: 'Agence vous prête un trousseau du 17 janvier 2030 au 19 janvier 2030.',
      url: `/app/transfers/requests/${transfer.id}`,
      tag: `transfer_authorized:transfer:${transfer.id}`,
      badge: 0,
    })
    expect(t.mail.to(contact.email)).toEqual([])
  })

  it('sends by e-mail only, or not at all, as the reader chose', async () => {
    const mailOnly = await authorizedWith('EMAIL')
    expect(t.mail.to(mailOnly.contact.email)).toHaveLength(1)
    const none = await authorizedWith('NONE')
    expect(t.mail.to(none.contact.email)).toEqual([])
    await t.runJobs()
    for (const device of [mailOnly.phone, mailOnly.tablet, none.phone, none.tablet]) {
      expect(push.received.filter((each) => each.path === device.path)).toEqual([])
    }
  })

  it('drops a device its push service no longer knows (410), and sends once to a busy one (500, then 201)', async () => {
    const { world, devices } = await authorizedToTwoDevices(410, 503)
    const [gone, busy] = devices
    expect((await listOf(world.contact.cookie)).data).toHaveLength(1)
    const [pending] = await t.db.select().from(jobs).where(eq(jobs.kind, 'push'))
    expect(pending).toBeDefined()
    push.answer(busy.path, 201)
    // The retry comes after its delay; running the queue again and again sends it once.
    t.clock.advance(HOUR)
    await t.runJobs()
    await t.runJobs()
    expect(await push.waitFor(busy.path)).toHaveLength(1)
    const rows = await t.db
      .select()
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, gone.endpoint))
    expect(rows).toEqual([])
    // The same notice enqueued again (a retried authorization's jobs) finds its key taken.
    expect(push.received.filter((each) => each.path === busy.path)).toHaveLength(1)
  })
})

describe('handovers, pushed', () => {
  it('tells the person whose phone has not sent it that it is recorded, and both people a refusal', async () => {
    const world = await handoverWorld(t)
    const giverPhone = push.device()
    const receiverPhone = push.device()
    await subscribeDevice(world.giver.cookie, giverPhone)
    await subscribeDevice(world.receiver.cookie, receiverPhone)
    const pair = await signedPair(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      giver: world.giverPhone,
      receiver: world.receiverPhone,
    })
    expect((await submitPair(t, world.giver, pair)).status).toBe(201)
    await t.runJobs()
    const [recorded] = await push.waitFor(receiverPhone.path)
    expect(recorded!.payload).toMatchObject({
      title: 'Remise enregistrée : « Master set »',
      url: expect.stringMatching(/^\/app\/handovers\/.+/),
    })
    expect(push.received.filter((each) => each.path === giverPhone.path)).toEqual([])

    // The same keychain given again from the same base: refused; each phone showed it done, each is told.
    t.clock.advance(1000)
    const again = await signedPair(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      giver: world.giverPhone,
      receiver: world.receiverPhone,
    })
    expect(await refusalOf(await submitPair(t, world.receiver, again))).toBeTruthy()
    await t.runJobs()
    const [refusedToGiver] = await push.waitFor(giverPhone.path)
    const received = await push.waitFor(receiverPhone.path, 2)
    for (const message of [refusedToGiver!, received[1]!]) {
      expect(message.payload).toMatchObject({ title: 'Remise refusée : « Master set »' })
    }
  })
})

describe('the badge', () => {
  it('counts the keychains I hold past their return and the extension requests I have to answer', async () => {
    const world = await transferWorld(t)
    const badgeOf = async (cookie: string) =>
      ((await (await t.get('/api/badge', { cookie })).json()) as { count: number }).count
    expect(await badgeOf(world.contact.cookie)).toBe(0)
    const from = calendarDayIn('Europe/Paris', t.clock.now())
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(
        toMember(world.contact.id),
        from,
        calendarDayIn('Europe/Paris', new Date(t.clock.now().getTime() + DAY)),
      ),
    )
    expect(response.status, await response.clone().text()).toBe(201)
    const transfer = (await response.json()) as { id: string }
    expect((await pickup(t, world.contact.cookie, transfer.id)).status).toBe(201)
    expect(await badgeOf(world.contact.cookie)).toBe(0)
    t.clock.advance(3 * DAY)
    expect(await badgeOf(world.contact.cookie)).toBe(1)
    expect(await badgeOf(world.admin.cookie)).toBe(0)
    const asked = await t.post(`/api/transfers/${transfer.id}/extensions`, {
      cookie: world.contact.cookie,
      json: { toDate: calendarDayIn('Europe/Paris', new Date(t.clock.now().getTime() + 2 * DAY)) },
      headers: { 'idempotency-key': crypto.randomUUID() },
    })
    expect(asked.status, await asked.clone().text()).toBe(201)
    expect(await badgeOf(world.admin.cookie)).toBe(1)
    expect(await badgeOf(world.member.cookie)).toBe(0)
  })
})

describe('the push job, as the push service answers', () => {
  it('drops a message the service refuses (400) and keeps the device; retries one it is too busy for (429)', async () => {
    const { world, devices } = await authorizedToTwoDevices(400, 429)
    const [refusing, busy] = devices
    const rows = await t.db.select().from(jobs).where(eq(jobs.kind, 'push'))
    const byDevice = new Map(
      await Promise.all(
        rows.map(async (row) => {
          const [device] = await t.db
            .select({ endpoint: pushSubscriptions.endpoint })
            .from(pushSubscriptions)
            .where(eq(pushSubscriptions.id, (row.payload as { subscriptionId: string }).subscriptionId))
          return [device?.endpoint, row] as const
        }),
      ),
    )
    expect(byDevice.get(refusing.endpoint)).toMatchObject({ lastError: null })
    expect(byDevice.get(refusing.endpoint)!.doneAt).not.toBeNull()
    expect(byDevice.get(busy.endpoint)).toMatchObject({
      doneAt: null,
      lastError: expect.stringContaining('429'),
    })
    expect((await listOf(world.contact.cookie)).data).toHaveLength(2)
    expect(t.logLines.join('')).toContain('Push message refused by the push service: dropped')
    expect(received(busy.path)).toEqual([])
  })
})

describe('handover notices, in English', () => {
  it('say who handed what, and open the handover in English', async () => {
    const world = await handoverWorld(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.receiver.id))
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.giver.id))
    const giverPhone = push.device()
    const receiverPhone = push.device()
    await subscribeDevice(world.giver.cookie, giverPhone)
    await subscribeDevice(world.receiver.cookie, receiverPhone)
    const pair = await signedPair(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      giver: world.giverPhone,
      receiver: world.receiverPhone,
    })
    expect((await submitPair(t, world.giver, pair)).status).toBe(201)
    await t.runJobs()
    const [recorded] = await push.waitFor(receiverPhone.path)
    expect(recorded!.payload).toEqual({
      title: 'Handover recorded: “Master set”',
      body: 'Nadia Night handed the keychain to Marc Morning; the server has it.',
      url: expect.stringMatching(/^\/en\/app\/handovers\/[A-Za-z0-9_-]+$/),
      tag: expect.stringMatching(/^handover:/),
      badge: 0,
    })
    t.clock.advance(1000)
    const again = await signedPair(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      giver: world.giverPhone,
      receiver: world.receiverPhone,
    })
    await refusalOf(await submitPair(t, world.receiver, again))
    await t.runJobs()
    const [refused] = await push.waitFor(giverPhone.path)
    expect(refused!.payload).toMatchObject({
      title: 'Handover refused: “Master set”',
      body: 'The handover from Nadia Night to Marc Morning was not recorded. Open it to see why and what to do.',
    })
  })
})

describe('the first morning of a pickup window', () => {
  it('is pushed to the holder-to-be at 09:00 that day, by push only', async () => {
    const world = await transferWorld(t)
    const phone = push.device()
    await subscribeDevice(world.contact.cookie, phone)
    await t.put('/api/notice-settings', {
      cookie: world.contact.cookie,
      json: { channels: { transfer_authorized: 'EMAIL' } },
    })
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id), '2030-01-17', '2030-01-19'),
    )
    const transfer = (await response.json()) as { id: string }
    await walk(t, '2030-01-17 08')
    const before = received(phone.path).length
    await walk(t, '2030-01-17 10')
    const today = received(phone.path).slice(before)
    expect(today.map((each) => each.payload)).toEqual([
      {
        title: 'Aujourd’hui : récupérez le trousseau « Cave »',
        body: 'Agence vous le prête à partir d’aujourd’hui ; dernier jour pour le récupérer : 18 janvier 2030.',
        url: `/app/transfers/requests/${transfer.id}`,
        tag: expect.stringContaining(`reminder:transfer:${transfer.id}:pickup_today`),
        badge: 0,
      },
    ])
  })
})
