import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import type { NoticeChannel, PersonalNoticeKind, PushMessage } from '../../../contract/notices.ts'
import { createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { statementsOf } from '../../../tests/server/statement-count.ts'
import { noticeDigestItems, noticeSettings, pushSubscriptions, users } from '../../db/schema.ts'
import type { NewJob } from '../../jobs/queue.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { type PersonalNotice, personalNoticeJobs } from './deliver.ts'

const t = setupTestAppAtEpoch()

const now = new Date('2030-01-15T09:00:00.000Z')
const PUBLIC_URL = 'http://x.test/trousseau/'

/** A person, their channel for some kinds (the others keep their defaults) and their devices' ids. */
async function person(
  options: {
    channels?: Partial<Record<PersonalNoticeKind, NoticeChannel>>
    devices?: number
    digest?: boolean
  } = {},
) {
  const [row] = await t.db
    .insert(users)
    .values({ email: uniqueEmail(), createdAt: now, lastSeenAt: now, noticeDigest: options.digest ?? false })
    .returning({ id: users.id })
  const id = row!.id
  const chosen = Object.entries(options.channels ?? {}) as [PersonalNoticeKind, NoticeChannel][]
  if (chosen.length > 0) {
    await t.db.insert(noticeSettings).values(chosen.map(([kind, channel]) => ({ userId: id, kind, channel })))
  }
  const devices: string[] = []
  for (let index = 0; index < (options.devices ?? 0); index++) {
    const [device] = await t.db
      .insert(pushSubscriptions)
      .values({
        userId: id,
        endpoint: `http://push.test/${randomUUID()}`,
        p256dh: 'p256dh',
        auth: 'auth',
        name: `Device ${index}`,
        createdAt: now,
        seenAt: now,
      })
      .returning({ id: pushSubscriptions.id })
    devices.push(device!.id)
  }
  return { id, devices }
}

const mailOf = (subject: string, extra: Partial<MailMessage> = {}): MailMessage => ({
  to: 'reader@example.test',
  subject,
  text: `${subject}: the text`,
  html: `<p>${subject}: the html</p>`,
  ...extra,
})

const jobsOf = (
  notices: PersonalNotice[],
  options: { organizationId?: string | null; publicUrl?: string } = {},
) =>
  personalNoticeJobs(t.db, notices, {
    now,
    organizationId: options.organizationId ?? null,
    publicUrl: options.publicUrl ?? PUBLIC_URL,
  })

/** The mail job of a mail, as queued at once. */
const mailJobOf = (mail: MailMessage, dedupeKey: string, organizationId: string | null = null): NewJob => ({
  kind: 'mail',
  payload: { to: mail.to, subject: mail.subject, text: mail.text, html: mail.html },
  runAt: now,
  now,
  organizationId,
  dedupeKey,
})

const pushJobOf = (
  subscriptionId: string,
  message: PushMessage,
  dedupeKey: string,
  organizationId: string | null = null,
): NewJob => ({
  kind: 'push',
  payload: { subscriptionId, message },
  runAt: now,
  now,
  organizationId,
  dedupeKey,
})

/** Jobs in a stable order: a person's devices come back from the database in no promised order. */
const sorted = (jobs: NewJob[]) => [...jobs].sort((a, b) => a.dedupeKey!.localeCompare(b.dedupeKey!))

/** The one push made of a mail for one device (base path `publicUrl`). */
async function pushOf(mail: MailMessage, publicUrl = PUBLIC_URL): Promise<PushMessage> {
  const reader = await person({ channels: { transfer_authorized: 'PUSH' }, devices: 1 })
  const jobs = await jobsOf([{ userId: reader.id, kind: 'transfer_authorized', subject: 's1', mail }], {
    publicUrl,
  })
  expect(jobs).toHaveLength(1)
  return (jobs[0]!.payload as { message: PushMessage }).message
}

describe('the jobs of personal notices', () => {
  it('follows each person’s channel: both, push only, e-mail only or nothing, a push to each of their devices', async () => {
    const both = await person({ channels: { transfer_authorized: 'BOTH' }, devices: 2 })
    const pushOnly = await person({ channels: { transfer_authorized: 'PUSH' }, devices: 2 })
    const mailOnly = await person({ channels: { transfer_authorized: 'EMAIL' }, devices: 1 })
    const none = await person({ channels: { transfer_authorized: 'NONE' }, devices: 1 })
    const mail = mailOf('Authorized', {
      summary: 'Cave, from 20 January',
      link: `${PUBLIC_URL}app/transfers/1`,
    })
    const message = { title: 'Authorized', body: 'Cave, from 20 January', url: '/app/transfers/1' }
    const notices = [both, pushOnly, mailOnly, none].map(
      (each): PersonalNotice => ({
        userId: each.id,
        kind: 'transfer_authorized',
        subject: 'transfer:1',
        mail,
      }),
    )
    const organizationId = randomUUID()
    const jobs = await jobsOf(notices, { organizationId })
    const tag = 'transfer_authorized:transfer:1'
    expect(sorted(jobs)).toEqual(
      sorted([
        mailJobOf(mail, `mail:${tag}:${both.id}`, organizationId),
        ...both.devices.map((id) => pushJobOf(id, { ...message, tag }, `push:${tag}:${id}`, organizationId)),
        ...pushOnly.devices.map((id) =>
          pushJobOf(id, { ...message, tag }, `push:${tag}:${id}`, organizationId),
        ),
        mailJobOf(mail, `mail:${tag}:${mailOnly.id}`, organizationId),
      ]),
    )
    // Each notice's mail before its pushes, in the order of the notices.
    expect(jobs.map((job) => job.kind)).toEqual(['mail', 'push', 'push', 'push', 'push', 'mail'])
  })

  it('decides each person’s kinds apart, and never pushes to another person’s devices', async () => {
    const one = await person({ channels: { found_report: 'PUSH', reminder: 'NONE' }, devices: 1 })
    const two = await person({ devices: 1 })
    const mail = mailOf('Found', { summary: 'A tag was found', link: `${PUBLIC_URL}app/found/7` })
    const reminder = mailOf('Tomorrow', { summary: 'Pick it up', link: `${PUBLIC_URL}app/transfers/2` })
    const jobs = await jobsOf([
      { userId: one.id, kind: 'found_report', subject: 'found:7', mail },
      { userId: one.id, kind: 'reminder', subject: 'transfer:2:eve', mail: reminder },
      { userId: two.id, kind: 'reminder', subject: 'transfer:2:eve', mail: reminder },
    ])
    expect(jobs).toEqual([
      pushJobOf(
        one.devices[0]!,
        { title: 'Found', body: 'A tag was found', url: '/app/found/7', tag: 'found_report:found:7' },
        `push:found_report:found:7:${one.devices[0]}`,
      ),
      mailJobOf(reminder, `mail:reminder:transfer:2:eve:${two.id}`),
      pushJobOf(
        two.devices[0]!,
        { title: 'Tomorrow', body: 'Pick it up', url: '/app/transfers/2', tag: 'reminder:transfer:2:eve' },
        `push:reminder:transfer:2:eve:${two.devices[0]}`,
      ),
    ])
  })

  it('looks up the devices of only those a push goes to, and none when nobody gets one', async () => {
    const pushed = await person({ channels: { stocktake_due: 'NONE', lent_overdue: 'PUSH' }, devices: 1 })
    const mailed = await person({ channels: { stocktake_due: 'EMAIL', lent_overdue: 'EMAIL' }, devices: 1 })
    const silent = await person({ channels: { stocktake_due: 'NONE', lent_overdue: 'NONE' }, devices: 1 })
    const mail = mailOf('Due')
    const notices = (people: { id: string }[]) =>
      people.flatMap((each) =>
        (['stocktake_due', 'lent_overdue'] as const).map(
          (kind): PersonalNotice => ({ userId: each.id, kind, subject: 'due', mail }),
        ),
      )
    const some = await statementsOf(() => jobsOf(notices([pushed, mailed, silent])))
    expect(some.result.map((job) => job.dedupeKey)).toEqual([
      `push:lent_overdue:due:${pushed.devices[0]}`,
      `mail:stocktake_due:due:${mailed.id}`,
      `mail:lent_overdue:due:${mailed.id}`,
    ])
    const devices = some.statements.filter((sql) => sql.includes('"push_subscriptions"'))
    expect(devices).toHaveLength(1)
    // One person asked for: the one with a push for some kind.
    expect(devices[0]).toMatch(/"user_id" in \(\$1\)/)

    const nobody = await statementsOf(() => jobsOf(notices([mailed, silent])))
    expect(nobody.result).toHaveLength(2)
    expect(nobody.statements.filter((sql) => sql.includes('"push_subscriptions"'))).toEqual([])
  })

  it('tells by push alone a notice without a mail, whatever the channel says of mail', async () => {
    const both = await person({ channels: { handover: 'BOTH' }, devices: 1 })
    const mailOnly = await person({ channels: { handover: 'EMAIL' }, devices: 1 })
    const push = { title: 'Handed over', body: 'Cave is yours', url: '/app/keychains/3', tag: 'handover:3' }
    const jobs = await jobsOf([
      { userId: both.id, kind: 'handover', subject: 'handover:3', mail: null, push },
      { userId: mailOnly.id, kind: 'handover', subject: 'handover:3', mail: null, push },
    ])
    expect(jobs).toEqual([pushJobOf(both.devices[0]!, push, `push:handover:handover:3:${both.devices[0]}`)])
  })

  it('pushes the notice’s own message rather than one made of its mail', async () => {
    const reader = await person({ devices: 1 })
    const mail = mailOf('Answered', { summary: 'Yes', link: `${PUBLIC_URL}app/transfers/4` })
    const push = { title: 'Extended', body: 'Until Friday', url: '/app/transfers/4?extended', tag: 'own' }
    const jobs = await jobsOf([{ userId: reader.id, kind: 'extension_answered', subject: 'x:4', mail, push }])
    expect(jobs).toEqual([
      mailJobOf(mail, `mail:extension_answered:x:4:${reader.id}`),
      pushJobOf(reader.devices[0]!, push, `push:extension_answered:x:4:${reader.devices[0]}`),
    ])
  })

  it('gives a person with a push but no device no push job', async () => {
    const reader = await person()
    const mail = mailOf('Authorized')
    expect(await jobsOf([{ userId: reader.id, kind: 'transfer_authorized', subject: 'a', mail }])).toEqual([
      mailJobOf(mail, `mail:transfer_authorized:a:${reader.id}`),
    ])
  })

  it('makes a mail’s push of its subject and summary, tagged with the notice’s kind and subject', async () => {
    const link = `${PUBLIC_URL}app/transfers/1`
    expect(await pushOf(mailOf('Authorized', { summary: 'Cave', link }))).toEqual({
      title: 'Authorized',
      body: 'Cave',
      url: '/app/transfers/1',
      tag: 'transfer_authorized:s1',
    })
    expect(await pushOf(mailOf('No summary', { link }))).toEqual({
      title: 'No summary',
      body: '',
      url: '/app/transfers/1',
      tag: 'transfer_authorized:s1',
    })
  })

  it('opens the mail’s link as a path of the app, whatever its base path', async () => {
    const urlOf = async (publicUrl: string, link?: string) =>
      (await pushOf(mailOf('S', link === undefined ? {} : { link }), publicUrl)).url
    expect(await urlOf('http://x.test/trousseau/', 'http://x.test/trousseau/app/transfers/1')).toBe(
      '/app/transfers/1',
    )
    expect(await urlOf('http://x.test/trousseau', 'http://x.test/trousseau/app/transfers/1')).toBe(
      '/app/transfers/1',
    )
    expect(await urlOf('http://x.test', 'http://x.test/app/transfers/1')).toBe('/app/transfers/1')
    expect(await urlOf('http://x.test/', 'http://x.test/en/app/transfers/1')).toBe('/en/app/transfers/1')
    expect(await urlOf('http://x.test/trousseau/', 'http://x.test/trousseau/app/keychains?tab=history')).toBe(
      '/app/keychains?tab=history',
    )
    // The app's own root: the base path alone, with or without its slash.
    expect(await urlOf('http://x.test/trousseau/', 'http://x.test/trousseau')).toBe('/')
    expect(await urlOf('http://x.test/trousseau/', 'http://x.test/trousseau/')).toBe('/')
  })

  it('opens the app’s home for a mail without a link or with a link elsewhere', async () => {
    const urlOf = async (link?: string) =>
      (await pushOf(mailOf('S', link === undefined ? {} : { link }), 'http://x.test/trousseau/')).url
    expect(await urlOf()).toBe('/app')
    expect(await urlOf('http://elsewhere.test/trousseau/app/transfers/1')).toBe('/app')
    expect(await urlOf('https://x.test/trousseau/app/transfers/1')).toBe('/app')
    expect(await urlOf('http://x.test:8080/trousseau/app/transfers/1')).toBe('/app')
  })

  it('keeps a digest reader’s mail for the morning’s digest, but mails a reminder at once', async () => {
    const organization = await createOrganization(t)
    const reader = await person({ digest: true, devices: 1 })
    const authorized = mailOf('Authorized', { summary: 'Cave', link: `${PUBLIC_URL}app/transfers/5` })
    const reminder = mailOf('Tomorrow', { summary: 'Pick it up' })
    const jobs = await jobsOf(
      [
        { userId: reader.id, kind: 'transfer_authorized', subject: 't:5', mail: authorized },
        { userId: reader.id, kind: 'reminder', subject: 't:5:eve', mail: reminder },
      ],
      { organizationId: organization.id },
    )
    const device = reader.devices[0]!
    // 10:00 in Paris: the digest leaves the next morning at 08:00 there.
    const runAt = new Date('2030-01-16T07:00:00.000Z')
    expect(jobs).toEqual([
      {
        kind: 'notice.digest',
        payload: { userId: reader.id },
        runAt,
        now,
        organizationId: organization.id,
        dedupeKey: `digest:${reader.id}:${runAt.toISOString()}`,
      },
      pushJobOf(
        device,
        { title: 'Authorized', body: 'Cave', url: '/app/transfers/5', tag: 'transfer_authorized:t:5' },
        `push:transfer_authorized:t:5:${device}`,
        organization.id,
      ),
      mailJobOf(reminder, `mail:reminder:t:5:eve:${reader.id}`, organization.id),
      pushJobOf(
        device,
        { title: 'Tomorrow', body: 'Pick it up', url: '/app', tag: 'reminder:t:5:eve' },
        `push:reminder:t:5:eve:${device}`,
        organization.id,
      ),
    ])
    const kept = await t.db.select().from(noticeDigestItems).where(eq(noticeDigestItems.userId, reader.id))
    expect(kept).toEqual([
      {
        id: expect.any(String),
        userId: reader.id,
        dedupeKey: `mail:transfer_authorized:t:5:${reader.id}`,
        subject: 'Authorized',
        summary: 'Cave',
        link: `${PUBLIC_URL}app/transfers/5`,
        createdAt: now,
        sentAt: null,
      },
    ])
  })

  it('returns no job, and asks the database nothing, for no notice', async () => {
    const none = await statementsOf(() => jobsOf([]))
    expect(none).toEqual({ result: [], statements: [] })
  })

  it('skips a person it does not know, and still tells the others', async () => {
    const reader = await person({ devices: 1 })
    const mail = mailOf('Found')
    const push = { title: 'Found', body: '', url: '/app', tag: 'f' }
    const jobs = await jobsOf([
      { userId: randomUUID(), kind: 'found_report', subject: 'f', mail, push },
      { userId: reader.id, kind: 'found_report', subject: 'f', mail, push },
    ])
    expect(jobs).toEqual([
      mailJobOf(mail, `mail:found_report:f:${reader.id}`),
      pushJobOf(reader.devices[0]!, push, `push:found_report:f:${reader.devices[0]}`),
    ])
  })
})
