import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { instant, walk } from '../../../tests/server/walk.ts'
import { jobs, noticeDigestItems, organizations, users } from '../../db/schema.ts'

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

  it('says it in the reader’s words with each notice’s link, at 08:00 in the organization’s own time zone', async () => {
    const world = await transferWorld(t)
    await t.db
      .update(organizations)
      .set({ timeZone: 'America/New_York' })
      .where(eq(organizations.id, world.organization.id))
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.contact.id))
    await t.put('/api/notice-settings', { cookie: world.contact.cookie, json: { digest: true } })
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id)),
    )
    const transfer = (await response.json()) as { id: string }
    // 09:00 UTC on the 15th is 04:00 in New York: the digest leaves at 08:00 there, that same day.
    t.clock.set(instant('America/New_York', '2030-01-15 07'))
    await t.runJobs()
    expect(t.mail.to(world.contact.email)).toEqual([])
    t.clock.set(instant('America/New_York', '2030-01-15 08'))
    await t.runJobs()
    await t.runJobs()
    const [digest] = t.mail.to(world.contact.email)
    expect(digest!.subject).toBe('Trousseau: 1 notice')
    expect(digest!.text).toContain('What happened since your last digest:')
    expect(digest!.text).toContain('You receive one mail a day because you chose it in your profile.')
    expect(digest!.text).toContain(`/transfers/requests/${transfer.id}`)
    expect(digest!.text).toContain('Agence lends you a keychain from')
  })

  it('sends fifty notices a mail, the rest the next morning', async () => {
    const world = await transferWorld(t)
    await t.put('/api/notice-settings', { cookie: world.contact.cookie, json: { digest: true } })
    const now = t.clock.now()
    await t.db.insert(noticeDigestItems).values(
      Array.from({ length: 51 }, (_, index) => ({
        userId: world.contact.id,
        dedupeKey: `test:${world.contact.id}:${index}`,
        subject: `Notice ${index}`,
        summary: '',
        createdAt: new Date(now.getTime() + index),
      })),
    )
    await authorize(t, world.admin.cookie, world.keychain.id, dates(toMember(world.contact.id)))
    t.clock.set(instant('Europe/Paris', '2030-01-16 08'))
    await t.runJobs()
    await t.runJobs()
    const [first] = t.mail.to(world.contact.email)
    expect(first!.subject).toBe('Trousseau : 50 avis')
    expect(first!.text).toContain('Notice 0\n')
    expect(first!.text).not.toContain('Notice 50')
    t.clock.set(instant('Europe/Paris', '2030-01-17 08'))
    await t.runJobs()
    await t.runJobs()
    const [, second, ...none] = t.mail.to(world.contact.email)
    expect(none).toEqual([])
    expect(second!.subject).toBe('Trousseau : 2 avis')
    expect(second!.text).toContain('Notice 50')
  })

  it('never holds a reminder: it is about its day', async () => {
    const world = await transferWorld(t)
    await t.put('/api/notice-settings', { cookie: world.contact.cookie, json: { digest: true } })
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id), '2030-01-17', '2030-01-19'),
    )
    expect(response.status).toBe(201)
    const sent = await walk(t, '2030-01-16 10')
    // The authorization waited for the morning's digest; the eve-of-window reminder came at its own hour.
    expect(sent.filter((mail) => mail.to === world.contact.email)).toEqual([
      { at: '2030-01-16 08', to: world.contact.email, subject: 'Trousseau : 1 avis' },
      { at: '2030-01-16 09', to: world.contact.email, subject: 'Demain : récupérez le trousseau « Cave »' },
    ])
  })
})
