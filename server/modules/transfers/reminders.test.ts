import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { jobs, organizations, users } from '../../db/schema.ts'
import { HOUR } from '../../test/clock.ts'
import { signedInMember } from '../../test/fixtures.ts'
import { setupTestAppAtEpoch } from '../../test/harness.ts'
import { authorize, dates, pickup, toMember, transferWorld } from '../../test/transfers.ts'
import { instant, type Sent, walk } from '../../test/walk.ts'

const t = setupTestAppAtEpoch({ clearMail: true })
// The file's tests share a database: each starts with no job of an earlier test's transfers.
beforeEach(async () => {
  await t.db.delete(jobs)
})

/** The world, its contact reading English, a MANAGER reading English, and a transfer to the contact. */
async function lentFrom17To19(options: { timeZone?: string } = {}) {
  const world = await transferWorld(t)
  if (options.timeZone) {
    await t.db
      .update(organizations)
      .set({ timeZone: options.timeZone })
      .where(eq(organizations.id, world.organization.id))
  }
  await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.contact.id))
  const manager = await signedInMember(t, world.organization.id, 'MANAGER')
  await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, manager.id))
  const response = await authorize(
    t,
    world.admin.cookie,
    world.keychain.id,
    dates(toMember(world.contact.id), '2030-01-17', '2030-01-19'),
  )
  expect(response.status).toBe(201)
  const transfer = (await response.json()) as { id: string }
  expect(t.mail.to(world.contact.email)).toHaveLength(1)
  t.mail.clear()
  return { ...world, manager, transfer }
}

describe('transfer reminders', () => {
  it('reminds the holder the eve of the window, the eve and the day of the return, the day after; then the managers', async () => {
    const { admin, manager, member, contact, transfer } = await lentFrom17To19()
    expect(await walk(t, '2030-01-17 11')).toEqual([
      { at: '2030-01-16 09', to: contact.email, subject: 'Tomorrow: pick up the keychain “Cave”' },
    ])
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    const later = await walk(t, '2030-01-24 00')
    expect(later.slice(0, 3)).toEqual([
      { at: '2030-01-18 09', to: contact.email, subject: 'Tomorrow: bring back the keychain “Cave”' },
      { at: '2030-01-19 09', to: contact.email, subject: 'Today: bring back the keychain “Cave”' },
      { at: '2030-01-20 09', to: contact.email, subject: 'Overdue: the keychain “Cave”' },
    ])
    // The escalation: the admin in French, the manager in English, neither the member nor the holder.
    const byAddress = (a: Sent, b: Sent) => a.to.localeCompare(b.to)
    expect(later.slice(3).sort(byAddress)).toEqual(
      [
        {
          at: '2030-01-21 09',
          to: admin.email,
          subject: `Non rendu : le trousseau « Cave » (${contact.email})`,
        },
        {
          at: '2030-01-21 09',
          to: manager.email,
          subject: `Not returned: the keychain “Cave” (${contact.email})`,
        },
      ].sort(byAddress),
    )
    expect(later.some((mail) => mail.to === member.email)).toBe(false)
    const body = t.mail.to(contact.email).at(-1)!.text
    expect(body).toContain('was due back on')
    expect(body).toContain(`/en/app/transfers/requests/${transfer.id}`)
  })

  it('sends nothing more once the keychain is back', async () => {
    const { member, contact, transfer } = await lentFrom17To19()
    await walk(t, '2030-01-17 10')
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    t.mail.clear()
    await walk(t, '2030-01-18 08')
    expect((await pickup(t, member.cookie, transfer.id)).status).toBe(201)
    expect(await walk(t, '2030-01-25 00')).toEqual([])
  })

  it('sends nothing once the transfer is cancelled, and no due-back reminder for a keychain never picked up', async () => {
    const cancelled = await lentFrom17To19()
    expect(
      (await t.delete(`/api/transfers/${cancelled.transfer.id}`, { cookie: cancelled.admin.cookie })).status,
    ).toBe(200)
    t.mail.clear()
    const untouched = await lentFrom17To19()
    const sent = await walk(t, '2030-01-25 00')
    expect(sent).toEqual([
      { at: '2030-01-16 09', to: untouched.contact.email, subject: 'Tomorrow: pick up the keychain “Cave”' },
    ])
  })

  it('keeps quiet at night: a reminder that comes due then waits for 08:00, a stale one is dropped', async () => {
    const { admin, manager, contact, transfer } = await lentFrom17To19()
    // The server is down from now until the 17th: the eve-of-window reminder has passed its moment by then.
    t.clock.set(instant('Europe/Paris', '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    // Only the authorizer hears of the pickup: no reminder went.
    expect(t.mail.messages.map((mail) => mail.to)).toEqual([admin.email])
    t.mail.clear()
    // Down again until 23:00 on the 20th: the due-back reminders are stale, the overdue one waits for the morning.
    t.clock.set(instant('Europe/Paris', '2030-01-20 23'))
    await t.runJobs()
    expect(t.mail.messages).toEqual([])
    const sent = await walk(t, '2030-01-21 10')
    expect(sent.map(({ at, to }) => ({ at, to })).sort((a, b) => a.to.localeCompare(b.to))).toEqual(
      [
        { at: '2030-01-21 08', to: contact.email },
        { at: '2030-01-21 09', to: admin.email },
        { at: '2030-01-21 09', to: manager.email },
      ].sort((a, b) => a.to.localeCompare(b.to)),
    )
    expect(sent.every(({ at }) => Number(at.slice(-2)) >= 8 && Number(at.slice(-2)) < 21)).toBe(true)
  })

  it("follows the organization's time zone", async () => {
    const { contact } = await lentFrom17To19({ timeZone: 'America/New_York' })
    expect(await walk(t, '2030-01-17 12', 'America/New_York')).toEqual([
      { at: '2030-01-16 09', to: contact.email, subject: 'Tomorrow: pick up the keychain “Cave”' },
    ])
  })

  it('sends the holder none once they turn reminder mails off; the escalation to the managers still goes', async () => {
    const { admin, manager, contact, transfer } = await lentFrom17To19()
    const garbled = await t.patch('/api/profile', { cookie: contact.cookie, json: { reminderMails: 'no' } })
    expect(garbled.status).toBe(400)
    expect((await garbled.json()).error.issues[0].message).toBe(
      'Reminder mails are on (true) or off (false).',
    )
    const off = await t.patch('/api/profile', { cookie: contact.cookie, json: { reminderMails: false } })
    expect(off.status).toBe(200)
    expect((await off.json()).reminderMails).toBe(false)
    t.clock.set(instant('Europe/Paris', '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    const sent = await walk(t, '2030-01-24 00')
    expect(sent.map((mail) => mail.to).sort()).toEqual([admin.email, manager.email].sort())
  })

  it('writes no job when the authorization fails', async () => {
    const { admin, contact, keychain } = await lentFrom17To19()
    const before = (await t.db.select().from(jobs)).length
    const overlap = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-18', '2030-01-20'),
    )
    expect(overlap.status).toBe(409)
    expect(await t.db.select().from(jobs)).toHaveLength(before)
  })
})

describe('chasing an overdue transfer', () => {
  async function overdue() {
    const world = await lentFrom17To19()
    t.clock.set(instant('Europe/Paris', '2030-01-17 10'))
    expect((await pickup(t, world.contact.cookie, world.transfer.id)).status).toBe(201)
    t.mail.clear()
    return world
  }
  const chase = (cookie: string, id: string) => t.post(`/api/transfers/${id}/chase`, { cookie })

  it('refuses an id that is not one', async () => {
    const { admin } = await lentFrom17To19()
    expect((await chase(admin.cookie, 'not-an-id')).status).toBe(400)
  })

  it('refuses a keychain that is not late: 409 not_overdue', async () => {
    const { admin, transfer } = await lentFrom17To19()
    const early = await chase(admin.cookie, transfer.id)
    expect(early.status).toBe(409)
    expect((await early.json()).error.code).toBe('not_overdue')
  })

  it('mails the holder now in their language, whatever their setting, and once an hour at most', async () => {
    const { admin, contact, transfer } = await overdue()
    await t.db.update(users).set({ reminderMails: false }).where(eq(users.id, contact.id))
    t.clock.set(instant('Europe/Paris', '2030-01-20 22'))
    const first = await chase(admin.cookie, transfer.id)
    expect(first.status).toBe(200)
    expect((await first.json()).chasedAt).toBe(t.clock.now().toISOString())
    const [mail] = t.mail.to(contact.email)
    expect(mail?.subject).toBe('Agence is waiting for the keychain “Cave”')
    expect(mail?.text).toContain(`${admin.email} of Agence reminds you`)

    t.clock.advance(HOUR - 1000)
    const again = await chase(admin.cookie, transfer.id)
    expect(again.status).toBe(429)
    expect(again.headers.get('retry-after')).toBe('1')
    const { error } = await again.json()
    expect(error).toMatchObject({
      code: 'chased_recently',
      retryAt: instant('Europe/Paris', '2030-01-20 23').toISOString(),
    })
    expect(error.message).toContain('23:00')
    expect(t.mail.to(contact.email)).toHaveLength(1)

    t.clock.advance(1000)
    expect((await chase(admin.cookie, transfer.id)).status).toBe(200)
    expect(t.mail.to(contact.email)).toHaveLength(2)
  })

  it('refuses once the keychain is back, and hides another organization’s transfer', async () => {
    const { member, manager, transfer } = await overdue()
    t.clock.set(instant('Europe/Paris', '2030-01-20 10'))
    const other = await transferWorld(t, { name: 'Autre' })
    expect((await chase(other.admin.cookie, transfer.id)).status).toBe(404)
    expect((await pickup(t, member.cookie, transfer.id)).status).toBe(201)
    const late = await chase(manager.cookie, transfer.id)
    expect(late.status).toBe(409)
    expect((await late.json()).error.code).toBe('not_overdue')
  })
})
