import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import ICAL from 'ical.js'
import { describe, expect, it } from 'vitest'
import { memberships, users } from '../../db/schema.ts'
import { signedInMember } from '../../test/fixtures.ts'
import { setupTestAppAtEpoch } from '../../test/harness.ts'
import { authorize, dates, toMember, transferWorld } from '../../test/transfers.ts'

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
    expect((await none.json()).error.code).toBe('no_organization_selected')
  })

  it('stops answering once revoked, and lets no one else revoke it', async () => {
    const { contact } = await transferWorld(t)
    const feed = await (await newFeed(contact.cookie, 'personal')).json()
    const stranger = await transferWorld(t, { name: 'Autre' })
    expect((await t.delete(`/api/calendar-feeds/${feed.id}`, { cookie: stranger.admin.cookie })).status).toBe(
      404,
    )
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
