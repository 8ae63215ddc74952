// Who is told by push of a handover the server decided, and in what words (issue 42): applied, the person whose
// phone has not sent it; refused, both. The notices are built directly, on people and devices inserted directly.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Locale } from '../../../contract/locale.ts'
import type { Role } from '../../../contract/permissions.ts'
import { addMember, createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { type MEMBERSHIP_STATUSES, noticeSettings, pushSubscriptions, users } from '../../db/schema.ts'
import { parsePo } from '../../i18n/po.ts'
import type { NewJob } from '../../jobs/queue.ts'
import { fromRoot } from '../../paths.ts'
import { handoverNoticeJobs, handoverPushTexts } from './notices.ts'

const t = setupTestAppAtEpoch()

type Party = { id: string; devices: string[] }

/** A person in `organizationId` (ACTIVE MEMBER unless told), reading `locale`, with `devices` push subscriptions. */
async function party(
  organizationId: string,
  locale: Locale,
  options: { devices?: number; status?: (typeof MEMBERSHIP_STATUSES)[number]; role?: Role } = {},
): Promise<Party> {
  const now = t.clock.now()
  const [row] = await t.db
    .insert(users)
    .values({ email: uniqueEmail(), locale, createdAt: now, lastSeenAt: now })
    .returning({ id: users.id })
  const id = row!.id
  await addMember(t, {
    userId: id,
    organizationId,
    role: options.role ?? 'MEMBER',
    status: options.status ?? 'ACTIVE',
    select: false,
  })
  const devices: string[] = []
  for (let i = 0; i < (options.devices ?? 1); i++) {
    const [device] = await t.db
      .insert(pushSubscriptions)
      .values({
        userId: id,
        endpoint: `http://127.0.0.1:8123/push/${crypto.randomUUID()}`,
        p256dh: 'p256dh',
        auth: 'auth',
        name: `Phone ${i}`,
        createdAt: now,
        seenAt: now,
      })
      .returning({ id: pushSubscriptions.id })
    devices.push(device!.id)
  }
  return { id, devices }
}

/** The night guard (French) gives "Master set" to the morning guard (English), each with a phone. */
async function world(
  options: { giver?: Parameters<typeof party>[2]; receiver?: Parameters<typeof party>[2] } = {},
) {
  const organization = await createOrganization(t, 'Relève')
  const giver = await party(organization.id, 'fr', options.giver)
  const receiver = await party(organization.id, 'en', options.receiver)
  const handed = (applied: boolean, sentBy: Party) => ({
    id: `offer-${crypto.randomUUID()}`,
    organizationId: organization.id,
    keychainName: 'Master set',
    giverId: giver.id,
    giverName: 'Nadia Night',
    receiverId: receiver.id,
    receiverName: 'Marc Morning',
    applied,
    sentById: sentBy.id,
  })
  return { organizationId: organization.id, giver, receiver, handed }
}

/** The jobs, by device, sorted so two readers' jobs compare whatever order the database answered them in. */
const byDevice = (jobs: NewJob[]) =>
  [...jobs].sort((a, b) => String(a.payload.subscriptionId).localeCompare(String(b.payload.subscriptionId)))

const applied = {
  fr: {
    title: 'Remise enregistrée : « Master set »',
    body: 'Nadia Night a remis le trousseau à Marc Morning ; le serveur l’a enregistrée.',
  },
  en: {
    title: 'Handover recorded: “Master set”',
    body: 'Nadia Night handed the keychain to Marc Morning; the server has it.',
  },
}
const refused = {
  fr: {
    title: 'Remise refusée : « Master set »',
    body: 'La remise de Nadia Night à Marc Morning n’a pas été enregistrée. Ouvrez-la pour voir pourquoi et que faire.',
  },
  en: {
    title: 'Handover refused: “Master set”',
    body: 'The handover from Nadia Night to Marc Morning was not recorded. Open it to see why and what to do.',
  },
}

/** The push job to one device, as the queue stores it. */
const pushTo = (
  device: string,
  handover: { id: string; organizationId: string },
  outcome: 'applied' | 'refused',
  text: { title: string; body: string },
  locale: Locale,
): NewJob => ({
  kind: 'push',
  payload: {
    subscriptionId: device,
    message: {
      ...text,
      url: `${locale === 'en' ? '/en' : ''}/app/handovers/${handover.id}`,
      tag: `handover:${handover.id}`,
    },
  },
  runAt: t.clock.now(),
  now: t.clock.now(),
  organizationId: handover.organizationId,
  dedupeKey: `push:handover:handover:${handover.id}:${outcome}:${device}`,
})

describe('handoverNoticeJobs', () => {
  it('tells the receiver of a handover the giver’s phone sent that it is recorded, in English, opening it', async () => {
    const { giver, receiver, handed } = await world()
    const handover = handed(true, giver)
    expect(await handoverNoticeJobs(t.db, t.deps, handover, t.clock.now())).toEqual([
      pushTo(receiver.devices[0]!, handover, 'applied', applied.en, 'en'),
    ])
  })

  it('tells the giver of a handover the receiver’s phone sent that it is recorded, in French', async () => {
    const { giver, receiver, handed } = await world()
    const handover = handed(true, receiver)
    expect(await handoverNoticeJobs(t.db, t.deps, handover, t.clock.now())).toEqual([
      pushTo(giver.devices[0]!, handover, 'applied', applied.fr, 'fr'),
    ])
  })

  it('tells both people a refusal, whoever sent it, each in their language, on each of their devices', async () => {
    const { giver, receiver, handed } = await world({ receiver: { devices: 2 } })
    for (const sender of [giver, receiver]) {
      const handover = handed(false, sender)
      expect(byDevice(await handoverNoticeJobs(t.db, t.deps, handover, t.clock.now()))).toEqual(
        byDevice([
          pushTo(giver.devices[0]!, handover, 'refused', refused.fr, 'fr'),
          pushTo(receiver.devices[0]!, handover, 'refused', refused.en, 'en'),
          pushTo(receiver.devices[1]!, handover, 'refused', refused.en, 'en'),
        ]),
      )
    }
  })

  it('tells no one who is no longer active in the organization, nor a member of another one only', async () => {
    const gone = await world({ giver: { status: 'DISABLED' }, receiver: { status: 'INVITED' } })
    expect(await handoverNoticeJobs(t.db, t.deps, gone.handed(false, gone.giver), t.clock.now())).toEqual([])

    // The receiver is a member of another organization, not of the handover's.
    const { giver, handed } = await world()
    const elsewhere = await createOrganization(t, 'Ailleurs')
    const stranger = await party(elsewhere.id, 'en')
    const handover = { ...handed(false, giver), receiverId: stranger.id }
    expect(await handoverNoticeJobs(t.db, t.deps, handover, t.clock.now())).toEqual([
      pushTo(giver.devices[0]!, handover, 'refused', refused.fr, 'fr'),
    ])
  })

  it('sends nothing to a person who turned handover notices off, nor to one without a device', async () => {
    const { giver, receiver, handed } = await world({ receiver: { devices: 0 } })
    await t.db.insert(noticeSettings).values({ userId: giver.id, kind: 'handover', channel: 'NONE' })
    expect(await handoverNoticeJobs(t.db, t.deps, handed(false, receiver), t.clock.now())).toEqual([])
  })
})

describe('the handover push texts', () => {
  const catalog = (locale: Locale) =>
    new Map(
      parsePo(readFileSync(fromRoot(`locales/${locale}/server.po`), 'utf8')).map(({ id, text }) => [
        id,
        text,
      ]),
    )

  it('are in the English catalog as the code writes them, and in the French one, each under its own id', () => {
    const [en, fr] = [catalog('en'), catalog('fr')]
    expect(Object.values(handoverPushTexts).map(({ id }) => id)).toEqual([
      'push.handover.applied.title',
      'push.handover.applied.body',
      'push.handover.refused.title',
      'push.handover.refused.body',
    ])
    for (const { id, message } of Object.values(handoverPushTexts)) {
      expect(en.get(id), id).toBe(message)
      expect(fr.get(id), id).toMatch(/\S/)
    }
  })
})
