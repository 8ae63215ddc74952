import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { HOUR } from '../../../tests/server/clock.ts'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, pickup, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { instant, type Sent, walk } from '../../../tests/server/walk.ts'
import { jobs, organizations, users } from '../../db/schema.ts'

const t = setupTestAppAtEpoch({ clearMail: true })
// The file's tests share a database: each starts with no job of an earlier test's transfers.
beforeEach(async () => {
  await t.db.delete(jobs)
})

const PARIS = 'Europe/Paris'

/** The reminder jobs (kind `transfer.reminder`), soonest first: their step, when they run, how they ended. */
async function reminderJobRows() {
  const rows = await t.db.select().from(jobs).where(eq(jobs.kind, 'transfer.reminder')).orderBy(jobs.runAt)
  return rows.map((row) => ({
    step: (row.payload as { step: string }).step,
    runAt: row.runAt,
    done: row.doneAt !== null,
    attempts: row.attempts,
    lastError: row.lastError,
  }))
}

/** Each of the six reminders ran and ended well: done, not failed, not waiting for a retry. */
async function expectEveryReminderDone() {
  const rows = await reminderJobRows()
  expect(rows.map((row) => row.step).sort()).toEqual([
    'due_today',
    'due_tomorrow',
    'escalation',
    'overdue',
    'pickup_today',
    'pickup_tomorrow',
  ])
  expect(rows.filter((row) => !row.done || row.lastError !== null)).toEqual([])
}

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
    await expectEveryReminderDone()
  })

  it('sends a disabled holder none; the escalation to the managers still goes', async () => {
    const { admin, manager, contact, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    const disabled = await t.patch(`/api/users/${contact.id}`, {
      cookie: admin.cookie,
      json: { status: 'DISABLED' },
    })
    expect(disabled.status).toBe(200)
    t.mail.clear()
    const sent = await walk(t, '2030-01-24 00')
    expect(sent.map(({ at, to }) => ({ at, to })).sort((a, b) => a.to.localeCompare(b.to))).toEqual(
      [
        { at: '2030-01-21 09', to: admin.email },
        { at: '2030-01-21 09', to: manager.email },
      ].sort((a, b) => a.to.localeCompare(b.to)),
    )
    await expectEveryReminderDone()
  })

  it('writes a job for each step still to come, at 09:00 in the organization, and none for a past one', async () => {
    await lentFrom17To19()
    expect(await reminderJobRows()).toEqual(
      [
        ['pickup_tomorrow', '2030-01-16 09'],
        ['pickup_today', '2030-01-17 09'],
        ['due_tomorrow', '2030-01-18 09'],
        ['due_today', '2030-01-19 09'],
        ['overdue', '2030-01-20 09'],
        ['escalation', '2030-01-21 09'],
      ].map(([step, at]) => ({
        step,
        runAt: instant(PARIS, at!),
        done: false,
        attempts: 0,
        lastError: null,
      })),
    )
    await t.db.delete(jobs)
    // Authorized at 10:00 on the 15th for the 15th to the 17th: the eve of the window is over.
    const world = await transferWorld(t, { name: 'Autre' })
    const created = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id)),
    )
    expect(created.status).toBe(201)
    expect((await reminderJobRows()).map(({ step, runAt }) => ({ step, runAt }))).toEqual([
      { step: 'due_tomorrow', runAt: instant(PARIS, '2030-01-16 09') },
      { step: 'due_today', runAt: instant(PARIS, '2030-01-17 09') },
      { step: 'overdue', runAt: instant(PARIS, '2030-01-18 09') },
      { step: 'escalation', runAt: instant(PARIS, '2030-01-19 09') },
    ])
  })

  it('writes no reminder for the moment of the authorization itself: its own mail has just gone', async () => {
    const world = await transferWorld(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, world.contact.id))
    t.clock.set(instant(PARIS, '2030-01-16 09'))
    const created = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id), '2030-01-17', '2030-01-19'),
    )
    expect(created.status).toBe(201)
    expect(t.mail.to(world.contact.email).map((mail) => mail.subject)).not.toContain(
      'Tomorrow: pick up the keychain “Cave”',
    )
    expect((await reminderJobRows()).map((row) => row.step)).toEqual([
      'pickup_today',
      'due_tomorrow',
      'due_today',
      'overdue',
      'escalation',
    ])
  })

  it('drops the eve-of-window reminder once the window has begun, though the keychain is not picked up', async () => {
    await lentFrom17To19()
    // The server is down from the 15th until 00:00 on the 17th, the window's first moment, then until 10:00.
    t.clock.set(instant(PARIS, '2030-01-17 00'))
    await t.runJobs()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    await t.runJobs()
    expect(t.mail.messages).toEqual([])
  })

  it('drops the eve-of-return reminder once the to-date has come; that day’s reminder still goes', async () => {
    const { contact, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    t.mail.clear()
    // Down from the 17th until 10:00 on the 19th, the to-date.
    t.clock.set(instant(PARIS, '2030-01-19 10'))
    await t.runJobs()
    expect(t.mail.messages.map(({ to, subject }) => ({ to, subject }))).toEqual([
      { to: contact.email, subject: 'Today: bring back the keychain “Cave”' },
    ])
  })

  it('waits from 21:00 exactly until 08:00 the next morning, an attempt not counted, then goes at 08:00', async () => {
    const { contact, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    t.mail.clear()
    // Down until 21:00 on the 20th: the overdue reminder (09:00 that day) is due, but it is night.
    t.clock.set(instant(PARIS, '2030-01-20 21'))
    await t.runJobs()
    expect(t.mail.messages).toEqual([])
    const overdue = (await reminderJobRows()).find((row) => row.step === 'overdue')
    expect(overdue).toEqual({
      step: 'overdue',
      runAt: instant(PARIS, '2030-01-21 08'),
      done: false,
      attempts: 0,
      lastError: null,
    })
    t.clock.set(instant(PARIS, '2030-01-21 08'))
    await t.runJobs()
    expect(t.mail.messages.map(({ to, subject }) => ({ to, subject }))).toEqual([
      { to: contact.email, subject: 'Overdue: the keychain “Cave”' },
    ])
  })

  it('waits from before 08:00 until 08:00 that same morning, and goes at 08:00 exactly', async () => {
    const { contact, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    t.mail.clear()
    // Down until 07:00 on the 21st: the overdue reminder (09:00 the day before) waits for 08:00.
    t.clock.set(instant(PARIS, '2030-01-21 07'))
    await t.runJobs()
    expect(t.mail.messages).toEqual([])
    expect((await reminderJobRows()).find((row) => row.step === 'overdue')?.runAt).toEqual(
      instant(PARIS, '2030-01-21 08'),
    )
    t.clock.set(instant(PARIS, '2030-01-21 08'))
    await t.runJobs()
    expect(t.mail.to(contact.email).map((mail) => mail.subject)).toEqual(['Overdue: the keychain “Cave”'])
  })

  it('sends at 08:00 exactly a reminder that was due during the night', async () => {
    const { contact, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    t.mail.clear()
    t.clock.set(instant(PARIS, '2030-01-21 08'))
    await t.runJobs()
    expect(t.mail.to(contact.email).map((mail) => mail.subject)).toEqual(['Overdue: the keychain “Cave”'])
  })

  it('names the keychain as it is called now', async () => {
    const { admin, contact, keychain } = await lentFrom17To19()
    const renamed = await t.patch(`/api/keychains/${keychain.id}`, {
      cookie: admin.cookie,
      json: { name: 'Cave B' },
    })
    expect(renamed.status).toBe(200)
    expect(await walk(t, '2030-01-16 10')).toEqual([
      { at: '2030-01-16 09', to: contact.email, subject: 'Tomorrow: pick up the keychain “Cave B”' },
    ])
  })

  it('mails no one twice when a reminder runs again (its process died before marking it done)', async () => {
    const { contact, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-17 10'))
    expect((await pickup(t, contact.cookie, transfer.id)).status).toBe(201)
    t.mail.clear()
    t.clock.set(instant(PARIS, '2030-01-20 10'))
    await t.runJobs()
    expect(t.mail.to(contact.email)).toHaveLength(1)
    // As if the process had died between sending and marking the job done: its lease runs out, it runs again.
    await t.db
      .update(jobs)
      .set({ doneAt: null, lockedBy: 'worker-gone', lockedUntil: t.clock.now() })
      .where(eq(jobs.kind, 'transfer.reminder'))
    t.clock.advance(HOUR)
    await t.runJobs()
    expect(t.mail.to(contact.email)).toHaveLength(1)
    expect((await reminderJobRows()).find((row) => row.step === 'overdue')).toMatchObject({
      done: true,
      attempts: 2,
    })
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

  it('refuses a keychain out but not yet late, and chases it from the end of the day after its to-date', async () => {
    const { admin, contact, transfer } = await overdue()
    // Due back on the 19th; late from 00:00 on the 20th, a day's grace after the to-date began.
    t.clock.set(new Date(instant(PARIS, '2030-01-20 00').getTime() - 1000))
    const notYet = await chase(admin.cookie, transfer.id)
    expect(notYet.status).toBe(409)
    expect((await notYet.json()).error.code).toBe('not_overdue')
    expect(t.mail.to(contact.email)).toEqual([])
    t.clock.advance(1000)
    expect((await chase(admin.cookie, transfer.id)).status).toBe(200)
    expect(t.mail.to(contact.email)).toHaveLength(1)
  })

  it('refuses a transfer whose window passed without a pickup', async () => {
    const { admin, transfer } = await lentFrom17To19()
    t.clock.set(instant(PARIS, '2030-01-20 10'))
    const never = await chase(admin.cookie, transfer.id)
    expect(never.status).toBe(409)
    expect((await never.json()).error.code).toBe('not_overdue')
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
    const hidden = await chase(other.admin.cookie, transfer.id)
    expect(hidden.status).toBe(404)
    expect((await hidden.json()).error).toEqual({ code: 'not_found', message: 'No such transfer.' })
    expect((await pickup(t, member.cookie, transfer.id)).status).toBe(201)
    const late = await chase(manager.cookie, transfer.id)
    expect(late.status).toBe(409)
    expect((await late.json()).error.code).toBe('not_overdue')
  })
})
