import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { instant } from '../../../tests/server/walk.ts'
import { jobs, noticeDigestItems, users } from '../../db/schema.ts'

const t = setupTestAppAtEpoch({ clearMail: true })
beforeEach(async () => {
  await t.db.delete(jobs)
})

describe('the daily digest', () => {
  it('keeps the mails of whoever chose it for one mail at 08:00 their organization’s time, each notice once', async () => {
    const world = await transferWorld(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.contact.id))
    const chose = await t.put('/api/notice-settings', {
      cookie: world.contact.cookie,
      json: { digest: true, channels: { transfer_authorized: 'EMAIL' } },
    })
    expect(((await chose.json()) as { digest: boolean }).digest).toBe(true)
    for (const [from, to] of [
      ['2030-01-20', '2030-01-21'],
      ['2030-01-25', '2030-01-26'],
    ] as const) {
      const response = await authorize(
        t,
        world.admin.cookie,
        world.keychain.id,
        dates(toMember(world.contact.id), from, to),
      )
      expect(response.status).toBe(201)
    }
    await t.runJobs()
    expect(t.mail.to(world.contact.email)).toEqual([])
    expect(
      await t.db.select().from(noticeDigestItems).where(eq(noticeDigestItems.userId, world.contact.id)),
    ).toHaveLength(2)

    // The harness's clock starts on 2030-01-15 at 10:00 in Paris: the digest leaves the next morning at 08:00.
    t.clock.set(instant('Europe/Paris', '2030-01-16 07'))
    await t.runJobs()
    expect(t.mail.to(world.contact.email)).toEqual([])
    t.clock.set(instant('Europe/Paris', '2030-01-16 08'))
    await t.runJobs()
    await t.runJobs()
    const [digest, ...more] = t.mail.to(world.contact.email)
    expect(more).toEqual([])
    expect(digest!.subject).toBe('Trousseau: 2 notices')
    expect(digest!.text).toContain('The keychain “Cave” is waiting for you from 20 January 2030')
    expect(digest!.text).toContain('The keychain “Cave” is waiting for you from 25 January 2030')
    const kept = await t.db
      .select()
      .from(noticeDigestItems)
      .where(eq(noticeDigestItems.userId, world.contact.id))
    expect(kept.every((item) => item.sentAt !== null)).toBe(true)
  })

  it('never holds a push back, and mails at once again once turned off', async () => {
    const world = await transferWorld(t)
    await t.put('/api/notice-settings', { cookie: world.contact.cookie, json: { digest: true } })
    await t.put('/api/notice-settings', { cookie: world.contact.cookie, json: { digest: false } })
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id)),
    )
    expect(response.status).toBe(201)
    expect(t.mail.to(world.contact.email)).toHaveLength(1)
  })
})
