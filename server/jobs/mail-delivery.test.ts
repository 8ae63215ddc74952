import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startMailbox } from '../../tests/e2e/mailbox.ts'
import { SECOND, TestClock } from '../../tests/server/clock.ts'
import { openTestDatabaseTwice } from '../../tests/server/database.ts'
import { createTestApp, type TestApp } from '../../tests/server/harness.ts'
import { authorize, transferWorld } from '../../tests/server/transfers.ts'
import type { Database } from '../db/client.ts'
import { smtpMailer } from '../mail/mailer.ts'

/**
 * Two server processes on one database (two pools on PostgreSQL), each delivering over real SMTP to one
 * loopback receiver, with their job runners draining at the same time.
 */
let mailbox: Awaited<ReturnType<typeof startMailbox>>
let databases: [Database, Database]
let first: TestApp
let second: TestApp
const clock = new TestClock()

beforeAll(async () => {
  mailbox = await startMailbox()
  databases = await openTestDatabaseTwice()
  const mailer = () => smtpMailer(mailbox.url, 'Trousseau <no-reply@example.test>')
  const options = { clock, runJobsAfterRequests: false }
  first = await createTestApp({ ...options, database: databases[0], mailer: mailer() })
  second = await createTestApp({ ...options, database: databases[1], mailer: mailer() })
})
afterAll(async () => {
  await second.close()
  await first.close()
  await databases[1].close()
  await databases[0].close()
  await mailbox.close()
})

const drainBoth = () => Promise.all([first.runJobs(), second.runJobs()])

describe('mail through the job queue', () => {
  it('delivers every mail once, with two processes, after the SMTP server refused them for a while', async () => {
    const world = await transferWorld(first)
    const addresses = Array.from({ length: 6 }, (_, n) => `o'brien-${n}@example.test`)
    mailbox.refuse(true)
    const sentAt = mailbox.received.length
    for (const [n, email] of addresses.entries()) {
      // Back-to-back windows of one keychain, each to a new address (invited as CONTACT: one mail each).
      const from = `2030-02-${String(1 + n * 2).padStart(2, '0')}`
      const to = `2030-02-${String(2 + n * 2).padStart(2, '0')}`
      const response = await authorize(first, world.admin.cookie, world.keychain.id, {
        recipient: { kind: 'email', email },
        fromDate: from,
        toDate: to,
      })
      expect(response.status).toBe(201)
    }
    await drainBoth()
    expect(mailbox.refused).toBe(addresses.length)
    expect(mailbox.received.length).toBe(sentAt)

    clock.advance(30 * SECOND)
    await drainBoth()
    expect(mailbox.received.length).toBe(sentAt)

    mailbox.refuse(false)
    clock.advance(60 * SECOND)
    await drainBoth()
    await drainBoth()
    const delivered = mailbox.received.slice(sentAt)
    expect(delivered.map((mail) => mail.to).sort()).toEqual(addresses.map((email) => [email]).sort())
  })
})
