import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, makeTransfer, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { calendarFeeds, memberships, users } from '../../db/schema.ts'
import { feedUrl } from './feeds.ts'
import { renderFeed } from './ics.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

/** The feed at `url` as a calendar app reads it: its events, parsed by an ICS library. */
async function events(url: string) {
  const response = await t.get(new URL(url).pathname, { origin: null })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8')
  const calendar = new ICAL.Component(ICAL.parse(await response.text()))
  return {
    name: calendar.getFirstPropertyValue('x-wr-calname'),
    events: calendar.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component)
      return {
        uid: event.uid,
        summary: event.summary,
        start: event.startDate.toString(),
        end: event.endDate.toString(),
        sequence: Number(component.getFirstPropertyValue('sequence')),
      }
    }),
  }
}

/** Each event's texts as a calendar app shows them, newest window first. */
const texts = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component)
    return {
      summary: event.summary,
      description: event.description,
      location: event.location,
      url: component.getFirstPropertyValue('url'),
    }
  })

const feedText = async (url: string) => (await t.get(new URL(url).pathname, { origin: null })).text()

const newFeed = (cookie: string, scope: 'personal' | 'organization') =>
  t.post('/api/calendar-feeds', { cookie, json: { scope } })

describe('calendar feeds', () => {
  it("gives a person their transfers' windows, in their language, and follows a window that moves", async () => {
    const { admin, contact, keychain } = await transferWorld(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, contact.id))
    const lent = await (await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))).json()
    const created = await newFeed(contact.cookie, 'personal')
    expect(created.status).toBe(201)
    const feed = await created.json()
    expect(feed.url).toMatch(/^http:\/\/localhost:3000\/api\/calendar\/[A-Za-z0-9_-]{43}\.ics$/)

    const first = await events(feed.url)
    expect(first.name).toBe('Trousseau — my transfers')
    expect(first.events).toEqual([
      {
        uid: `${lent.id}@trousseau`,
        summary: 'Cave (Agence)',
        start: '2030-01-15',
        end: '2030-01-18',
        sequence: 0,
      },
    ])

    // The holder picks it up, asks for two more days, and a manager agrees: the same event, moved.
    await t.post(`/api/transfers/${lent.id}/pickups`, {
      cookie: contact.cookie,
      headers: { 'idempotency-key': randomUUID() },
    })
    const asked = await t.post(`/api/transfers/${lent.id}/extensions`, {
      cookie: contact.cookie,
      json: { toDate: '2030-01-19' },
      headers: { 'idempotency-key': randomUUID() },
    })
    const { extension } = await asked.json()
    await t.post(`/api/transfers/${lent.id}/extensions/${extension.id}`, {
      cookie: admin.cookie,
      json: { decision: 'approve' },
    })
    expect((await events(feed.url)).events).toEqual([
      {
        uid: `${lent.id}@trousseau`,
        summary: 'Cave (Agence)',
        start: '2030-01-15',
        end: '2030-01-20',
        sequence: 1,
      },
    ])
    // The address is shown once: the list names the feed without it.
    const listed = await (await t.get('/api/calendar-feeds', { cookie: contact.cookie })).json()
    expect(listed.data).toEqual([{ ...feed, url: null }])
  })

  it('refuses a scope it does not know, and an organization feed without a selected organization', async () => {
    const { contact } = await transferWorld(t)
    const wrong = await newFeed(contact.cookie, 'team' as 'personal')
    expect(wrong.status).toBe(400)
    expect((await wrong.json()).error.issues).toEqual([
      { path: 'scope', message: 'Scope must be organization or personal.' },
    ])
    const { cookie } = await t.signIn('nobody-calendar@example.test')
    const none = await newFeed(cookie, 'organization')
    expect(none.status).toBe(409)
    expect((await none.json()).error).toMatchObject({
      code: 'no_organization_selected',
      message: 'Select an organization first.',
    })
    const { member } = await transferWorld(t)
    const refused = await newFeed(member.cookie, 'organization')
    expect(refused.status).toBe(403)
    expect((await refused.json()).error.message).toBe(
      "Only an organization's admins and managers follow all its transfers.",
    )
  })

  it('stops answering once revoked, and lets no one else revoke it', async () => {
    const { contact } = await transferWorld(t)
    const feed = await (await newFeed(contact.cookie, 'personal')).json()
    const stranger = await transferWorld(t, { name: 'Autre' })
    const foreign = await t.delete(`/api/calendar-feeds/${feed.id}`, { cookie: stranger.admin.cookie })
    expect(foreign.status).toBe(404)
    expect((await foreign.json()).error.message).toBe('No such calendar feed.')
    expect((await t.delete(`/api/calendar-feeds/${feed.id}`, { cookie: contact.cookie })).status).toBe(204)
    expect((await t.get(new URL(feed.url).pathname, { origin: null })).status).toBe(404)
    expect(
      (await t.get('/api/calendar-feeds', { cookie: contact.cookie }).then((r) => r.json())).data,
    ).toEqual([])
    expect((await t.get(`/api/calendar/${'x'.repeat(43)}.ics`, { origin: null })).status).toBe(404)
  })

  it("gives an organization's managers every transfer, and stops when the owner no longer manages", async () => {
    const { organization, admin, member, contact, keychain } = await transferWorld(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    await authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))
    expect((await newFeed(member.cookie, 'organization')).status).toBe(403)
    const created = await newFeed(manager.cookie, 'organization')
    expect(created.status).toBe(201)
    const feed = await created.json()
    expect(feed).toMatchObject({
      scope: 'organization',
      organizationId: organization.id,
      organizationName: 'Agence',
    })
    const read = await events(feed.url)
    expect(read.name).toBe('Trousseau — Agence')
    expect(read.events.map((event) => event.summary)).toEqual([`Cave — ${contact.email}`])

    await t.db.update(memberships).set({ role: 'MEMBER' }).where(eq(memberships.userId, manager.id))
    expect((await t.get(new URL(feed.url).pathname, { origin: null })).status).toBe(404)
  })
})

describe("a feed's texts", () => {
  it("describes each window and its state in the owner's language, with the organization's address and a link to the request", async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const at = (
      status: 'RETURNED' | 'TRANSFERRED' | 'SCHEDULED' | 'CANCELLED',
      fromDate: string,
      toDate: string,
    ) =>
      makeTransfer(t, {
        organizationId: organization.id,
        keychainId: keychain.id,
        recipientId: contact.id,
        fromDate,
        toDate,
        status,
      })
    // Stored under the keychain's name then ("Keychain"); the feed names it as it is called now.
    const returned = await at('RETURNED', '2030-01-10', '2030-01-12')
    const out = await at('TRANSFERRED', '2030-01-14', '2030-01-16')
    const scheduled = await at('SCHEDULED', '2030-01-20', '2030-01-23')
    await at('CANCELLED', '2030-01-17', '2030-01-18')
    // Someone else's transfer is not in the contact's own feed.
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: admin.id,
      fromDate: '2030-01-25',
      toDate: '2030-01-26',
    })
    const feed = await (await newFeed(contact.cookie, 'personal')).json()
    const link = (id: string) => `http://localhost:3000/app/transfers/requests/${id}`
    const location = '1 rue de la Paix, 75002 Paris, France'
    const french = await feedText(feed.url)
    expect(french).toContain('PRODID:-//Trousseau//Trousseau//FR\r\n')
    expect(french).toContain('X-WR-CALNAME:Trousseau — mes transferts\r\n')
    expect(french).toContain('X-PUBLISHED-TTL:PT1H\r\n')
    expect(texts(french)).toEqual([
      {
        summary: 'Cave (Agence)',
        description: 'Retrait du 20 janvier 2030 au 22 janvier 2030, à rendre le 23 janvier 2030.',
        location,
        url: link(scheduled.id),
      },
      {
        summary: 'Cave (Agence)',
        description: 'Retrait du 14 janvier 2030 au 15 janvier 2030, à rendre le 16 janvier 2030. Retiré.',
        location,
        url: link(out.id),
      },
      {
        summary: 'Cave (Agence)',
        description: 'Retrait du 10 janvier 2030 au 11 janvier 2030, à rendre le 12 janvier 2030. Rendu.',
        location,
        url: link(returned.id),
      },
    ])

    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, contact.id))
    const english = await feedText(feed.url)
    expect(english).toContain('PRODID:-//Trousseau//Trousseau//EN\r\n')
    const en = (id: string) => `http://localhost:3000/en/app/transfers/requests/${id}`
    expect(texts(english)).toEqual([
      {
        summary: 'Cave (Agence)',
        description: 'Pickup from 20 January 2030 to 22 January 2030, due back on 23 January 2030.',
        location,
        url: en(scheduled.id),
      },
      {
        summary: 'Cave (Agence)',
        description:
          'Pickup from 14 January 2030 to 15 January 2030, due back on 16 January 2030. Picked up.',
        location,
        url: en(out.id),
      },
      {
        summary: 'Cave (Agence)',
        description: 'Pickup from 10 January 2030 to 11 January 2030, due back on 12 January 2030. Returned.',
        location,
        url: en(returned.id),
      },
    ])

    // A person no longer a member there (DISABLED) no longer sees that organization's transfers.
    await t.db.update(memberships).set({ status: 'DISABLED' }).where(eq(memberships.userId, contact.id))
    expect(texts(await feedText(feed.url))).toEqual([])
  })

  it("links an organization's events to its transfers in the owner's language, and names a feed without transfers", async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-20',
      toDate: '2030-01-21',
    })
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, manager.id))
    const english = await feedText((await (await newFeed(manager.cookie, 'organization')).json()).url)
    expect(english).toContain('X-WR-CALNAME:Trousseau — Agence\r\n')
    expect(texts(english)).toEqual([
      {
        summary: `Cave — ${contact.email}`,
        description: 'Pickup from 20 January 2030 to 20 January 2030, due back on 21 January 2030.',
        location: '1 rue de la Paix, 75002 Paris, France',
        url: 'http://localhost:3000/en/app/transfers',
      },
    ])
    const french = await feedText((await (await newFeed(admin.cookie, 'organization')).json()).url)
    expect(french).toContain('X-WR-CALNAME:Trousseau — Agence\r\n')
    expect(texts(french)).toEqual([
      {
        summary: `Cave — ${contact.email}`,
        description: 'Retrait du 20 janvier 2030 au 20 janvier 2030, à rendre le 21 janvier 2030.',
        location: '1 rue de la Paix, 75002 Paris, France',
        url: 'http://localhost:3000/app/transfers',
      },
    ])

    const empty = await transferWorld(t, { name: 'Vide' })
    const none = await events((await (await newFeed(empty.admin.cookie, 'organization')).json()).url)
    expect(none).toEqual({ name: 'Trousseau — Vide', events: [] })
  })

  it('links under the public address, however many slashes end it', async () => {
    const { organization, admin, contact, keychain } = await transferWorld(t)
    const lent = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
    })
    await newFeed(admin.cookie, 'organization')
    await newFeed(contact.cookie, 'personal')
    const feeds = await t.db.select().from(calendarFeeds)
    const render = async (userId: string, publicUrl: string) => {
      const feed = feeds.find((each) => each.userId === userId)!
      const [owner] = await t.db.select().from(users).where(eq(users.id, userId))
      return texts(
        await renderFeed(t.db, { feed, owner: owner!, now: t.clock.now(), today: '2030-01-15', publicUrl }),
      )
    }
    expect((await render(admin.id, 'https://keys.example.test//')).map((event) => event.url)).toEqual([
      'https://keys.example.test/app/transfers',
    ])
    expect((await render(contact.id, 'https://keys.example.test/')).map((event) => event.url)).toEqual([
      `https://keys.example.test/app/transfers/requests/${lent.id}`,
    ])
  })
})

describe('the list of feeds', () => {
  it('lists the newest first', async () => {
    const { organization } = await transferWorld(t)
    const manager = await signedInMember(t, organization.id, 'MANAGER')
    const first = await (await newFeed(manager.cookie, 'personal')).json()
    t.clock.advance(60_000)
    const second = await (await newFeed(manager.cookie, 'organization')).json()
    t.clock.advance(60_000)
    const third = await (await newFeed(manager.cookie, 'personal')).json()
    const listed = await (await t.get('/api/calendar-feeds', { cookie: manager.cookie })).json()
    expect(listed.data.map((feed: { id: string }) => feed.id)).toEqual([third.id, second.id, first.id])
  })

  it("gives a feed's address under the public address, however many slashes end it", () => {
    expect(feedUrl('https://keys.example.test//', 'token')).toBe(
      'https://keys.example.test/api/calendar/token.ics',
    )
    expect(feedUrl('https://keys.example.test', 'token')).toBe(
      'https://keys.example.test/api/calendar/token.ics',
    )
  })
})
