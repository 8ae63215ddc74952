import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import type { Locale } from '../../../contract/locale.ts'
import { createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { instant, walk } from '../../../tests/server/walk.ts'
import { jobs, noticeDigestItems, organizations, users } from '../../db/schema.ts'
import { parsePo } from '../../i18n/po.ts'
import { enqueueJobs, type NewJob } from '../../jobs/queue.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { fromRoot } from '../../paths.ts'
import { digestReaders, digestTexts, keepForDigest } from './digest.ts'

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

/** A person who chose the digest (or not), reading in `locale`. */
async function reader(options: { locale?: Locale; digest?: boolean } = {}) {
  const now = t.clock.now()
  const [row] = await t.db
    .insert(users)
    .values({
      email: uniqueEmail('reader'),
      locale: options.locale ?? 'fr',
      noticeDigest: options.digest ?? true,
      createdAt: now,
      lastSeenAt: now,
    })
    .returning()
  return row!
}

const mailOf = (subject: string, extra: Pick<MailMessage, 'summary' | 'link'> = {}): MailMessage => ({
  to: 'reader@example.test',
  subject,
  text: `${subject}: the text`,
  html: `<p>${subject}</p>`,
  ...extra,
})

/** Keeps the mails for the reader's digest, a millisecond apart, and queues the digest's job (one for them all). */
async function keep(userId: string, mails: MailMessage[]) {
  const start = t.clock.now().getTime()
  const digests: NewJob[] = []
  for (const [index, mail] of mails.entries()) {
    const now = new Date(start + index)
    digests.push(
      await keepForDigest(t.db, { userId, key: `kept:${userId}:${index}`, mail, now, organizationId: null }),
    )
  }
  await enqueueJobs(t.db, digests)
}

/** Runs the digest due at `at` (Paris) and the mail it queues. */
async function morning(at: string) {
  t.clock.set(instant('Europe/Paris', at))
  await t.runJobs()
  await t.runJobs()
}

/** The test's jobs (the table is emptied before each), in the order they were queued. */
const queued = async () =>
  (await t.db.select().from(jobs).orderBy(jobs.createdAt, jobs.runAt)).map(
    ({ id, kind, runAt, dedupeKey, doneAt, lastError }) => ({
      id,
      kind,
      runAt,
      dedupeKey,
      doneAt,
      lastError,
    }),
  )

describe('keeping a notice for the digest', () => {
  it('keeps the mail’s subject, summary and link once, and names the job of 08:00 the next morning in Paris', async () => {
    const person = await reader()
    const now = t.clock.now()
    const input = { userId: person.id, key: `mail:k:${person.id}`, now, organizationId: null }
    const job = await keepForDigest(t.db, {
      ...input,
      mail: mailOf('First', { summary: 'One', link: 'http://x/1' }),
    })
    // 10:00 in Paris on the 15th: the digest leaves at 08:00 there on the 16th.
    expect(job).toEqual({
      kind: 'notice.digest',
      payload: { userId: person.id },
      runAt: new Date('2030-01-16T07:00:00.000Z'),
      now,
      organizationId: null,
      dedupeKey: `digest:${person.id}:2030-01-16T07:00:00.000Z`,
    })
    await keepForDigest(t.db, { ...input, mail: mailOf('Again') })
    await keepForDigest(t.db, { ...input, key: `mail:other:${person.id}`, mail: mailOf('Bare') })
    const kept = await t.db
      .select()
      .from(noticeDigestItems)
      .where(eq(noticeDigestItems.userId, person.id))
      .orderBy(noticeDigestItems.subject)
    expect(
      kept.map(({ dedupeKey, subject, summary, link, createdAt, sentAt }) => ({
        dedupeKey,
        subject,
        summary,
        link,
        createdAt,
        sentAt,
      })),
    ).toEqual([
      {
        dedupeKey: `mail:other:${person.id}`,
        subject: 'Bare',
        summary: '',
        link: null,
        createdAt: now,
        sentAt: null,
      },
      {
        dedupeKey: input.key,
        subject: 'First',
        summary: 'One',
        link: 'http://x/1',
        createdAt: now,
        sentAt: null,
      },
    ])
  })

  it('leaves at 08:00 in the organization’s zone: that day before it, the next day from 08:00 on', async () => {
    const organization = await createOrganization(t)
    await t.db
      .update(organizations)
      .set({ timeZone: 'America/New_York' })
      .where(eq(organizations.id, organization.id))
    const person = await reader()
    const runAt = async (now: Date) =>
      (
        await keepForDigest(t.db, {
          userId: person.id,
          key: `mail:${now.toISOString()}:${person.id}`,
          mail: mailOf('S'),
          now,
          organizationId: organization.id,
        })
      ).runAt
    const eight = instant('America/New_York', '2030-01-15 08')
    expect(eight).toEqual(new Date('2030-01-15T13:00:00.000Z'))
    expect(await runAt(new Date(eight.getTime() - 1))).toEqual(eight)
    expect(await runAt(eight)).toEqual(instant('America/New_York', '2030-01-16 08'))
    expect(await runAt(new Date(eight.getTime() + 1))).toEqual(instant('America/New_York', '2030-01-16 08'))
  })

  it('names the readers who chose the digest among those asked, and asks nothing for nobody', async () => {
    const [one, two, three] = [await reader(), await reader({ digest: false }), await reader()]
    expect(await digestReaders(t.db, [one.id, two.id])).toEqual(new Set([one.id]))
    expect(await digestReaders(t.db, [three.id, one.id])).toEqual(new Set([three.id, one.id]))
    expect(await statementsOf(() => digestReaders(t.db, []))).toEqual({ result: new Set(), statements: [] })
  })
})

describe('the digest mail', () => {
  it('lists each notice, oldest first, by its subject, summary and link, in French', async () => {
    const person = await reader({ locale: 'fr' })
    await keep(person.id, [
      mailOf('Trousseau autorisé', { summary: 'Cave, du 20 janvier', link: 'http://x.test/app/transfers/1' }),
      mailOf('Sans plus'),
      mailOf('Avec un lien', { link: 'http://x.test/app/transfers/2' }),
    ])
    await morning('2030-01-16 08')
    const [digest, ...more] = t.mail.to(person.email)
    expect(more).toEqual([])
    expect(digest!.subject).toBe('Trousseau : 3 avis')
    expect(digest!.text).toBe(
      [
        'Bonjour,',
        '',
        'Ce qui s’est passé depuis votre dernier récapitulatif :',
        '',
        'Trousseau autorisé\nCave, du 20 janvier\nhttp://x.test/app/transfers/1',
        '',
        'Sans plus',
        '',
        'Avec un lien\nhttp://x.test/app/transfers/2',
        '',
        'Vous recevez un seul e-mail par jour, comme vous l’avez choisi dans votre profil.',
        '',
        'L’équipe Trousseau',
      ].join('\n'),
    )
    expect(digest!.html).toContain('<span style="display: none">Trousseau autorisé</span>')
  })

  it('says it in English to an English reader', async () => {
    const person = await reader({ locale: 'en' })
    await keep(person.id, [mailOf('Authorized', { summary: 'Cave', link: 'http://x.test/app/transfers/1' })])
    await morning('2030-01-16 08')
    const [digest] = t.mail.to(person.email)
    expect(digest!.subject).toBe('Trousseau: 1 notice')
    expect(digest!.text).toBe(
      [
        'Hello,',
        '',
        'What happened since your last digest:',
        '',
        'Authorized\nCave\nhttp://x.test/app/transfers/1',
        '',
        'You receive one mail a day because you chose it in your profile.',
        '',
        'The Trousseau team',
      ].join('\n'),
    )
  })

  it('holds fifty notices in one mail and queues another a day later, which sends nothing when none is left', async () => {
    const person = await reader()
    await keep(
      person.id,
      Array.from({ length: 50 }, (_, index) => mailOf(`Notice ${index}`)),
    )
    const eight = instant('Europe/Paris', '2030-01-16 08')
    // A minute late: tomorrow's job is a day after the digest ran, not after 08:00.
    t.clock.set(new Date(eight.getTime() + 60_000))
    await t.runJobs()
    await t.runJobs()
    expect(t.mail.to(person.email).map((mail) => mail.subject)).toEqual(['Trousseau : 50 avis'])
    const [digest, mail, tomorrow, ...none] = await queued()
    expect(none).toEqual([])
    expect(digest).toMatchObject({
      kind: 'notice.digest',
      runAt: eight,
      doneAt: expect.any(Date),
      lastError: null,
    })
    expect(mail).toMatchObject({ kind: 'mail', dedupeKey: `mail:${digest!.id}`, doneAt: expect.any(Date) })
    const next = new Date(eight.getTime() + 60_000 + 24 * 60 * 60 * 1000)
    expect(tomorrow).toMatchObject({
      kind: 'notice.digest',
      runAt: next,
      dedupeKey: `digest:${person.id}:${next.toISOString()}`,
      doneAt: null,
    })
    // All fifty went: tomorrow's finds nothing, sends nothing, and is done.
    t.clock.set(next)
    await t.runJobs()
    await t.runJobs()
    expect(t.mail.to(person.email)).toHaveLength(1)
    expect((await queued())[2]).toMatchObject({
      id: tomorrow!.id,
      doneAt: expect.any(Date),
      lastError: null,
    })
  })

  it('names no job for tomorrow when fewer than fifty notices went', async () => {
    const person = await reader()
    await keep(
      person.id,
      Array.from({ length: 49 }, (_, index) => mailOf(`Notice ${index}`)),
    )
    await morning('2030-01-16 08')
    expect(t.mail.to(person.email).map((mail) => mail.subject)).toEqual(['Trousseau : 49 avis'])
    expect((await queued()).map((job) => job.kind)).toEqual(['notice.digest', 'mail'])
  })
})

describe('the digest’s texts', () => {
  const catalog = (locale: Locale) =>
    new Map(
      parsePo(readFileSync(fromRoot(`locales/${locale}/server.po`), 'utf8')).map(({ id, text }) => [
        id,
        text,
      ]),
    )

  it('are in the English catalog as the code writes them, and in the French one, each under its own id', () => {
    const [en, fr] = [catalog('en'), catalog('fr')]
    for (const { id, message } of Object.values(digestTexts)) {
      expect(en.get(id), id).toBe(message)
      expect(fr.get(id), id).toMatch(/\S/)
    }
    expect(new Set(Object.values(digestTexts).map(({ id }) => id)).size).toBe(Object.keys(digestTexts).length)
  })
})
