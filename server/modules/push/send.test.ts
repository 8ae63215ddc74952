import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { PushMessage } from '../../../contract/notices.ts'
import { HOUR } from '../../../tests/server/clock.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { startPushReceiver } from '../../../tests/server/push-receiver.ts'
import { jobs, pushSubscriptions, users } from '../../db/schema.ts'
import type { ClaimedJob } from '../../jobs/queue.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { pushJob, pushJobs } from './send.ts'
import { subscribe } from './subscriptions.ts'
import { vapidKeys } from './vapid.ts'

const VAPID_SUBJECT = 'mailto:push-ops@trousseau.example'
const t = setupTestAppAtEpoch({ config: { vapidSubject: VAPID_SUBJECT } })
let push: Awaited<ReturnType<typeof startPushReceiver>>
beforeAll(async () => {
  push = await startPushReceiver()
})
afterAll(() => push.close())
beforeEach(async () => {
  await t.db.delete(jobs)
})

const TAG = 'transfer_authorized:transfer:42'
/** The first 32 characters of the tag's SHA-256, base64url: the same subject, the same topic. */
const TOPIC = 'NVMLg_UhOkg0YcMLI6ir8wLsxvWSxZeU'
const message: PushMessage = {
  title: 'The keychain “Cave” is waiting for you',
  body: 'Agence lends you a keychain.',
  url: '/en/app/transfers/requests/42',
  tag: TAG,
}

/** A person, written straight into the table: the job needs no session. */
async function person() {
  const [row] = await t.db
    .insert(users)
    .values({ email: uniqueEmail(), createdAt: t.clock.now(), lastSeenAt: t.clock.now() })
    .returning({ id: users.id })
  return row!.id
}

/**
 * A device subscribed, of a new person unless `userId` is given (a person keeps ten devices), and its push service
 * set to answer `status` (201 unless told).
 */
async function subscribedDevice(status?: number, userId?: string) {
  const device = push.device()
  if (status !== undefined) push.answer(device.path, status)
  const owner = userId ?? (await person())
  const { subscription } = await subscribe(t.deps, owner, {
    endpoint: device.endpoint,
    keys: device.keys,
    name: 'Pixel 8',
  })
  return { ...device, subscriptionId: subscription.id, userId: owner }
}

/** The push job for that device, as a worker claims it. */
function claimed(subscriptionId: string, sent: PushMessage = message): ClaimedJob {
  const { kind, payload, organizationId } = pushJob(subscriptionId, sent, {
    now: t.clock.now(),
    organizationId: null,
    dedupeKey: randomUUID(),
  })
  return {
    id: randomUUID(),
    kind,
    payload,
    organizationId: organizationId ?? null,
    attempts: 1,
    maxAttempts: 12,
  }
}

/** What the handler answered (or threw), and the log lines it wrote, parsed, time left out. */
type Run = { value?: unknown; error?: unknown; logs: Record<string, unknown>[] }

/** Runs the push handler on `job`, as the job runner would. */
async function run(job: ClaimedJob): Promise<Run> {
  const before = t.logLines.length
  const outcome = await pushJobs(t.deps).push!(job).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  const logs = t.logLines.slice(before).map((line) => {
    const { time: _, ...rest } = JSON.parse(line) as Record<string, unknown>
    return rest
  })
  return { ...outcome, logs }
}

const isSubscribed = async (subscriptionId: string) =>
  (await t.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.id, subscriptionId))).length === 1

const receivedAt = (path: string) => push.received.filter((each) => each.path === path)

const service = () => new URL(push.origin).host

describe('the push job', () => {
  it('is a job of kind push carrying the subscription and the message, due now, under the key given', () => {
    const now = t.clock.now()
    expect(
      pushJob('sub-1', message, { now, organizationId: 'org-1', dedupeKey: 'push:sub-1:notice-1' }),
    ).toEqual({
      kind: 'push',
      payload: { subscriptionId: 'sub-1', message },
      runAt: now,
      now,
      organizationId: 'org-1',
      dedupeKey: 'push:sub-1:notice-1',
    })
    expect(Object.keys(pushJobs(t.deps))).toEqual(['push'])
  })

  it('posts the message with the reader’s badge, encrypted to the device and signed by the server for the service', async () => {
    const phone = await subscribedDevice()
    // The badge the notice was written with gives way to the count as the message leaves (nothing waits: 0).
    const job = claimed(phone.subscriptionId, { ...message, badge: 7 })
    expect(await run(job)).toEqual({ value: undefined, logs: [] })
    const [received] = receivedAt(phone.path)
    expect(receivedAt(phone.path)).toHaveLength(1)
    expect(received!.payload).toEqual({ ...message, badge: 0 })
    expect(received!.vapid).toMatchObject({
      aud: push.origin,
      sub: VAPID_SUBJECT,
      publicKey: (await vapidKeys(t.deps.config)).publicKey,
    })
    expect(received!.headers).toMatchObject({
      authorization: expect.stringMatching(/^vapid t=[^,]+, k=[A-Za-z0-9_-]{87}$/),
      ttl: '86400',
      urgency: 'normal',
      topic: TOPIC,
      'content-encoding': 'aes128gcm',
      'content-type': 'application/octet-stream',
    })
    expect(await isSubscribed(phone.subscriptionId)).toBe(true)
  })

  it('counts every 2xx answer as delivered, an empty 204 included, and logs nothing', async () => {
    for (const status of [200, 201, 202, 204, 299]) {
      const phone = await subscribedDevice(status)
      expect(await run(claimed(phone.subscriptionId)), String(status)).toEqual({ value: undefined, logs: [] })
      expect(receivedAt(phone.path).map((each) => each.payload)).toEqual([{ ...message, badge: 0 }])
      expect(await isSubscribed(phone.subscriptionId)).toBe(true)
    }
  })

  it('removes the subscription its service no longer knows (404, 410), and the user’s other devices stay', async () => {
    for (const status of [404, 410]) {
      const gone = await subscribedDevice(status)
      const other = await subscribedDevice(undefined, gone.userId)
      const job = claimed(gone.subscriptionId)
      expect(await run(job), String(status)).toEqual({
        value: undefined,
        logs: [
          {
            level: 30,
            jobId: job.id,
            subscriptionId: gone.subscriptionId,
            status,
            service: service(),
            msg: 'Push subscription gone: removed',
          },
        ],
      })
      expect(await isSubscribed(gone.subscriptionId)).toBe(false)
      expect(await isSubscribed(other.subscriptionId)).toBe(true)
    }
  })

  it('throws while the service is busy (429, 5xx), for the queue to try again, and keeps the subscription', async () => {
    for (const status of [429, 500, 501, 503, 599]) {
      const phone = await subscribedDevice(status)
      expect(await run(claimed(phone.subscriptionId)), String(status)).toEqual({
        error: new Error(`The push service answered ${status}`),
        logs: [],
      })
      expect(await isSubscribed(phone.subscriptionId)).toBe(true)
    }
  })

  it('drops a message the service refuses for good (another 4xx, a 3xx that is no redirect), with a warning', async () => {
    for (const status of [300, 400, 401, 403, 409, 411, 413, 428, 430, 499]) {
      const phone = await subscribedDevice(status)
      const job = claimed(phone.subscriptionId)
      expect(await run(job), String(status)).toEqual({
        value: undefined,
        logs: [
          {
            level: 40,
            jobId: job.id,
            subscriptionId: phone.subscriptionId,
            status,
            service: service(),
            msg: 'Push message refused by the push service: dropped',
          },
        ],
      })
      expect(await isSubscribed(phone.subscriptionId)).toBe(true)
    }
  })

  it('follows no redirect: a 302 fails the attempt and keeps the subscription', async () => {
    const phone = await subscribedDevice(302)
    const { error, logs } = await run(claimed(phone.subscriptionId))
    expect(error).toBeInstanceOf(TypeError)
    expect(error).toMatchObject({ message: 'fetch failed', cause: { message: 'unexpected redirect' } })
    expect(logs).toEqual([])
    expect(await isSubscribed(phone.subscriptionId)).toBe(true)
  })

  it('sends nothing for a subscription removed before the job runs', async () => {
    const phone = await subscribedDevice()
    await t.db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, phone.subscriptionId))
    expect(await run(claimed(phone.subscriptionId))).toEqual({ value: undefined, logs: [] })
    expect(receivedAt(phone.path)).toEqual([])
  })

  it('is retried by the queue after a busy answer, with the status as its last error, then delivered once', async () => {
    const phone = await subscribedDevice(503)
    await enqueueJobs(t.db, [
      pushJob(phone.subscriptionId, message, {
        now: t.clock.now(),
        organizationId: null,
        dedupeKey: `push:${phone.subscriptionId}`,
      }),
    ])
    await t.runJobs()
    expect(await t.db.select().from(jobs)).toMatchObject([
      { kind: 'push', doneAt: null, attempts: 1, lastError: 'The push service answered 503' },
    ])
    push.answer(phone.path, 201)
    t.clock.advance(HOUR)
    await t.runJobs()
    await t.runJobs()
    expect(await t.db.select().from(jobs)).toMatchObject([
      { doneAt: t.clock.now(), attempts: 2, lastError: null },
    ])
    expect(receivedAt(phone.path).map((each) => each.payload)).toEqual([{ ...message, badge: 0 }])
  })
})
