import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { createTestApp, type TestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { startReceiver } from '../../../tests/server/webhook-receiver.ts'

/** The review's probe, on the real job handlers: one organization's webhooks never answer. */
let t: TestApp
let silent: Awaited<ReturnType<typeof startReceiver>>
let listening: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  // Requests only enqueue; the jobs run in a drain of their own, as the server's polling runs them.
  t = await createTestApp({ runJobsAfterRequests: false })
  silent = await startReceiver(() => 'hang')
  listening = await startReceiver(() => 'accept')
})
afterAll(async () => {
  await silent.close()
  await listening.close()
  await t.close()
})

const SECOND = 1000

async function webhookOf(cookie: string, url: string): Promise<string> {
  const response = await t.post('/api/webhooks', {
    cookie,
    json: { url, eventTypes: ['order.status_changed'] },
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { endpoint: { id: string } }).endpoint.id
}

describe('an organization whose webhook target never answers', () => {
  it('delays neither another organization’s invitation mail nor its webhooks beyond 2 s', async () => {
    const slow = await organizationWithAdmin(t, 'Lente')
    const hooks = await Promise.all(Array.from({ length: 6 }, () => webhookOf(slow.admin.cookie, silent.url)))
    for (const id of hooks) {
      expect((await t.post(`/api/webhooks/${id}/tests`, { cookie: slow.admin.cookie })).status).toBe(202)
    }
    const draining = t.runJobs()
    await expect.poll(() => silent.received.length, { timeout: 5 * SECOND }).toBeGreaterThan(0)

    const other = await organizationWithAdmin(t, 'Vive')
    const ownHook = await webhookOf(other.admin.cookie, listening.url)
    const invitee = uniqueEmail('invitee')
    const invited = await t.post(`/api/organizations/${other.organization.id}/users`, {
      cookie: other.admin.cookie,
      json: { email: invitee, role: 'MEMBER', firstName: 'Léa', lastName: 'Roy', locale: 'fr' },
    })
    expect(invited.status).toBe(201)
    // The server's nudge: the drain under way is asked to claim again.
    const invitedAt = Date.now()
    void t.runJobs()
    await expect.poll(() => t.mail.to(invitee).length, { timeout: 2 * SECOND, interval: 20 }).toBe(1)
    const mailAfter = Date.now() - invitedAt
    expect((await t.post(`/api/webhooks/${ownHook}/tests`, { cookie: other.admin.cookie })).status).toBe(202)
    const testedAt = Date.now()
    void t.runJobs()
    await expect.poll(() => listening.accepted().length, { timeout: 2 * SECOND, interval: 20 }).toBe(1)
    const webhookAfter = Date.now() - testedAt
    console.info(`fairness: invitation mail after ${mailAfter} ms, webhook after ${webhookAfter} ms`)
    expect(mailAfter).toBeLessThan(2 * SECOND)
    expect(webhookAfter).toBeLessThan(2 * SECOND)
    // The silent target held two of the slow organization's attempts at a time, never more.
    expect(silent.received.length).toBeLessThanOrEqual(2)
    await silent.close()
    await draining
  }, 60_000)
})
