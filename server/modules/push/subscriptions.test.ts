// The devices a person receives push on (issue 42): one row per push endpoint, refreshed on every app start, moved
// to whoever signs in on a shared browser, at most ten per person. The rules are called directly.
import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { SECOND } from '../../../tests/server/clock.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { pushSubscriptions, users } from '../../db/schema.ts'
import { listSubscriptions, subscribe, unsubscribe } from './subscriptions.ts'

const t = setupTestAppAtEpoch()

async function person() {
  const [row] = await t.db
    .insert(users)
    .values({ email: uniqueEmail(), createdAt: t.clock.now(), lastSeenAt: t.clock.now() })
    .returning({ id: users.id })
  return row!.id
}

let deviceCounter = 0
/** A browser's subscription as `PushManager.subscribe()` gives it, on a push service of its own. */
function device(origin = 'http://127.0.0.1:8123') {
  deviceCounter += 1
  return {
    endpoint: `${origin}/push/${deviceCounter}-${crypto.randomUUID()}`,
    keys: { p256dh: `p256dh-${deviceCounter}`, auth: `auth-${deviceCounter}` },
    name: `Device ${deviceCounter}`,
  }
}

const rowsOf = (userId: string) =>
  t.db
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt))

const onHttps = () => ({ ...t.deps, config: { ...t.deps.config, publicUrl: 'https://keys.example.com' } })

describe('subscribe', () => {
  it('stores a new device for the caller and answers it, created', async () => {
    const userId = await person()
    const input = device()
    const { subscription, created } = await subscribe(t.deps, userId, input)
    expect(created).toBe(true)
    expect(subscription).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: input.name,
      service: '127.0.0.1:8123',
      createdAt: '2030-01-15T09:00:00.000Z',
      seenAt: '2030-01-15T09:00:00.000Z',
    })
    expect(await rowsOf(userId)).toEqual([
      {
        id: subscription.id,
        userId,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        name: input.name,
        createdAt: t.clock.now(),
        seenAt: t.clock.now(),
      },
    ])
  })

  it('refreshes the keys, name and time seen of an endpoint it knows, keeping its id and creation', async () => {
    const userId = await person()
    const input = device()
    const first = await subscribe(t.deps, userId, input)
    const createdAt = t.clock.now()
    t.clock.advance(5 * SECOND)
    const again = { ...input, keys: { p256dh: 'new-p256dh', auth: 'new-auth' }, name: 'Renamed' }
    expect(await subscribe(t.deps, userId, again)).toEqual({
      created: false,
      subscription: { ...first.subscription, name: 'Renamed', seenAt: '2030-01-15T09:00:05.000Z' },
    })
    expect(await rowsOf(userId)).toEqual([
      {
        id: first.subscription.id,
        userId,
        endpoint: input.endpoint,
        p256dh: 'new-p256dh',
        auth: 'new-auth',
        name: 'Renamed',
        createdAt,
        seenAt: t.clock.now(),
      },
    ])
  })

  it('moves a browser to whoever signs in on it next, leaving the first person’s other devices', async () => {
    const first = await person()
    const second = await person()
    const shared = device()
    const own = device()
    const made = await subscribe(t.deps, first, shared)
    await subscribe(t.deps, first, own)
    t.clock.advance(SECOND)
    const moved = await subscribe(t.deps, second, { ...shared, name: 'Shared tablet' })
    expect(moved).toEqual({
      created: false,
      subscription: { ...made.subscription, name: 'Shared tablet', seenAt: t.clock.now().toISOString() },
    })
    expect((await rowsOf(second)).map((row) => row.endpoint)).toEqual([shared.endpoint])
    expect((await rowsOf(first)).map((row) => row.endpoint)).toEqual([own.endpoint])
  })

  it('keeps ten devices, and lets the one unseen longest go for an eleventh, never another person’s', async () => {
    const userId = await person()
    const neighbour = await person()
    const theirs = device()
    await subscribe(t.deps, neighbour, theirs)
    const inputs = []
    for (let i = 0; i < 10; i++) {
      t.clock.advance(SECOND)
      inputs.push(device())
      await subscribe(t.deps, userId, inputs[i]!)
    }
    expect((await rowsOf(userId)).map((row) => row.endpoint)).toEqual(inputs.map((each) => each.endpoint))
    // The first device is seen again: the second is now the one unseen longest.
    t.clock.advance(SECOND)
    await subscribe(t.deps, userId, inputs[0]!)
    expect(await rowsOf(userId)).toHaveLength(10)
    t.clock.advance(SECOND)
    const eleventh = device()
    expect((await subscribe(t.deps, userId, eleventh)).created).toBe(true)
    expect((await rowsOf(userId)).map((row) => row.endpoint)).toEqual([
      inputs[0]!.endpoint,
      ...inputs.slice(2).map((each) => each.endpoint),
      eleventh.endpoint,
    ])
    expect((await rowsOf(neighbour)).map((row) => row.endpoint)).toEqual([theirs.endpoint])
  })

  it('among devices seen at the same time, lets the one subscribed first go', async () => {
    const userId = await person()
    const seenAt = t.clock.now()
    const stored = Array.from({ length: 10 }, (_, i) => ({
      ...device(),
      createdAt: new Date(seenAt.getTime() - (10 - i) * SECOND),
    }))
    await t.db.insert(pushSubscriptions).values(
      stored.map((each) => ({
        userId,
        endpoint: each.endpoint,
        p256dh: each.keys.p256dh,
        auth: each.keys.auth,
        name: each.name,
        createdAt: each.createdAt,
        seenAt,
      })),
    )
    await subscribe(t.deps, userId, device())
    const left = (await rowsOf(userId)).map((row) => row.endpoint)
    expect(left).toHaveLength(10)
    expect(left).not.toContain(stored[0]!.endpoint)
    expect(left).toContain(stored[1]!.endpoint)
  })

  it('takes an http push service on a server served over http (a developer’s, the tests’)', async () => {
    const userId = await person()
    expect(t.deps.config.publicUrl).toBe('http://localhost:3000')
    expect((await subscribe(t.deps, userId, device('http://localhost:9000'))).subscription.service).toBe(
      'localhost:9000',
    )
  })

  it('takes only https endpoints on a server served over https, storing nothing else', async () => {
    const userId = await person()
    const refused = subscribe(onHttps(), userId, device('http://push.example'))
    await expect(refused).rejects.toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'endpoint must be an https:// address.',
      issues: [{ path: 'endpoint', message: 'endpoint must be an https:// address.' }],
    })
    expect(await rowsOf(userId)).toEqual([])
    const secure = await subscribe(onHttps(), userId, device('https://fcm.googleapis.com'))
    expect(secure.subscription.service).toBe('fcm.googleapis.com')
    expect(await rowsOf(userId)).toHaveLength(1)
  })
})

describe('listSubscriptions', () => {
  it('answers the caller’s devices only, last seen first, then by id', async () => {
    const userId = await person()
    const other = await person()
    await subscribe(t.deps, other, device())
    const a = await subscribe(t.deps, userId, device())
    const b = await subscribe(t.deps, userId, device())
    t.clock.advance(SECOND)
    const c = await subscribe(t.deps, userId, device('https://updates.push.services.mozilla.com'))
    const [tieFirst, tieSecond] = [a.subscription, b.subscription].sort((x, y) => (x.id < y.id ? -1 : 1))
    expect(await listSubscriptions(t.db, userId)).toEqual([c.subscription, tieFirst, tieSecond])
    expect((await listSubscriptions(t.db, userId))[0]!.service).toBe('updates.push.services.mozilla.com')
    expect(await listSubscriptions(t.db, await person())).toEqual([])
  })
})

describe('unsubscribe', () => {
  it('removes the caller’s device, and answers 404 for another person’s or an unknown one', async () => {
    const userId = await person()
    const other = await person()
    const { subscription } = await subscribe(t.deps, userId, device())
    const kept = await subscribe(t.deps, userId, device())
    const notFound = {
      status: 404,
      code: 'not_found',
      message: 'No such device receiving notifications.',
    }
    await expect(unsubscribe(t.db, other, subscription.id)).rejects.toMatchObject(notFound)
    expect(await rowsOf(userId)).toHaveLength(2)
    await unsubscribe(t.db, userId, subscription.id)
    expect((await rowsOf(userId)).map((row) => row.id)).toEqual([kept.subscription.id])
    await expect(unsubscribe(t.db, userId, subscription.id)).rejects.toMatchObject(notFound)
  })
})
