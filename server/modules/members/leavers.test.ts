import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { TEST_EPOCH } from '../../../tests/server/clock.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { authorize, dates, makeTransfer, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { keychains, users } from '../../db/schema.ts'
import { leaverAlertJobs, listLeavers } from './leavers.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

const disable = (cookie: string, userId: string) =>
  t.patch(`/api/users/${userId}`, { cookie, json: { status: 'DISABLED' } })

const leaversOf = async (cookie: string) =>
  (await (await t.get('/api/reports/leavers', { cookie })).json()) as {
    data: Array<{ person: { id: string }; keychains: number; transfers: number }>
  }

describe('the leaver alert', () => {
  it('tells every other admin, in their language, within the request that disabled someone holding keys', async () => {
    const world = await transferWorld(t)
    const second = await signedInMember(t, world.organization.id, 'ADMIN')
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, second.id))
    await t.db
      .update(users)
      .set({ firstName: 'Marc', lastName: 'Martin' })
      .where(eq(users.id, world.member.id))
    const started = Date.now()
    const response = await disable(world.admin.cookie, world.member.id)
    expect(response.status).toBe(200)
    const [mail] = t.mail.to(second.email)
    expect(Date.now() - started).toBeLessThan(5000)
    expect(mail!.subject).toBe('Marc Martin left Agence with 1 keychain')
    expect(mail!.text).toContain(`http://localhost:3000/en/app/users/${world.member.id}`)
    expect(mail!.text).toContain(
      'Marc Martin can no longer sign in to Agence, yet still holds 1 keychain and has no transfer open.',
    )
    const [french] = t.mail.to(world.admin.email)
    expect(french).toMatchObject({ subject: 'Marc Martin a quitté Agence avec 1 trousseau' })
    // The person who left is not told.
    expect(t.mail.to(world.member.email)).toEqual([])
  })

  it('counts the transfers still open to them, and says nothing of someone who holds nothing', async () => {
    const world = await transferWorld(t)
    await t.db
      .update(keychains)
      .set({ custodianId: world.admin.id })
      .where(eq(keychains.id, world.keychain.id))
    expect((await disable(world.admin.cookie, world.member.id)).status).toBe(200)
    expect(t.mail.messages).toEqual([])
    const response = await authorize(
      t,
      world.admin.cookie,
      world.keychain.id,
      dates(toMember(world.contact.id)),
    )
    expect(response.status).toBe(201)
    t.mail.messages.length = 0
    const second = await signedInMember(t, world.organization.id, 'ADMIN')
    expect((await disable(world.admin.cookie, world.contact.id)).status).toBe(200)
    const [mail] = t.mail.to(second.email)
    expect(mail!.text).toContain('ne détient aucun trousseau et a 1 transfert en cours')
  })

  it('lists the leavers until everything is back, most keychains first', async () => {
    const world = await transferWorld(t)
    expect((await leaversOf(world.admin.cookie)).data).toEqual([])
    await disable(world.admin.cookie, world.member.id)
    expect((await leaversOf(world.admin.cookie)).data).toEqual([
      { person: expect.objectContaining({ id: world.member.id }), keychains: 1, transfers: 0 },
    ])
    await t.db
      .update(keychains)
      .set({ custodianId: world.admin.id })
      .where(eq(keychains.id, world.keychain.id))
    expect((await leaversOf(world.admin.cookie)).data).toEqual([])
    // Who left is not for members or contacts to read; the one who left is signed out.
    expect((await t.get('/api/reports/leavers', { cookie: world.contact.cookie })).status).toBe(403)
    expect((await t.get('/api/reports/leavers', { cookie: world.member.cookie })).status).toBe(401)
  })
})

/** The leaver alert's jobs for `userId` of the organization, computed at `now` (a time apart from the clock's). */
const alertJobs = (organizationId: string, userId: string, now = new Date(TEST_EPOCH.getTime() + 1234)) =>
  leaverAlertJobs(t.db, { organizationId, userId, now, publicUrl: 'http://localhost:3000/' })

const rename = (userId: string, values: { firstName?: string; lastName?: string; email?: string }) =>
  t.db.update(users).set(values).where(eq(users.id, userId))

describe('the leaver alert’s jobs', () => {
  it('are one mail per other ACTIVE admin, keyed by the person, the departure’s time and the admin, with what they hold', async () => {
    const world = await transferWorld(t)
    const english = await signedInMember(t, world.organization.id, 'ADMIN')
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, english.id))
    // Not told: a disabled admin, a manager, an admin of another organization.
    await signedInMember(t, world.organization.id, 'ADMIN', { status: 'DISABLED' })
    await signedInMember(t, world.organization.id, 'MANAGER')
    await organizationWithAdmin(t, 'Ailleurs')
    await rename(world.member.id, { firstName: 'Marc', lastName: 'Martin' })
    await makeKeychain(t, world.organization.id, 'Bureau', world.member.id)
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.member.id,
    })
    const now = new Date(TEST_EPOCH.getTime() + 1234)
    const jobs = await alertJobs(world.organization.id, world.member.id, now)
    const byAddress = [...jobs].sort((a, b) =>
      String((a.payload as { to: string }).to).localeCompare(String((b.payload as { to: string }).to)),
    )
    const job = (admin: { id: string; email: string }, subject: string) => ({
      kind: 'mail',
      payload: { to: admin.email, subject, text: expect.any(String), html: expect.any(String) },
      runAt: now,
      now,
      organizationId: world.organization.id,
      dedupeKey: `mail:member_left:member-left:${world.member.id}:${now.getTime()}:${admin.id}`,
    })
    expect(byAddress).toEqual(
      [
        job(world.admin, 'Marc Martin a quitté Agence avec 2 trousseaux'),
        job(english, 'Marc Martin left Agence with 2 keychains'),
      ].sort((a, b) => a.payload.to.localeCompare(b.payload.to)),
    )
    const text = (to: string) =>
      (jobs.find((each) => (each.payload as { to: string }).to === to)!.payload as { text: string }).text
    expect(text(english.email)).toContain(
      'Marc Martin can no longer sign in to Agence, yet still holds 2 keychains and has 1 transfer open.',
    )
    expect(text(english.email)).toContain(`http://localhost:3000/en/app/users/${world.member.id}`)
    expect(text(world.admin.email)).toContain(`http://localhost:3000/app/users/${world.member.id}`)
  })

  it('leave out the leaver, even an admin, and name someone without a name by their address', async () => {
    const world = await transferWorld(t)
    await makeKeychain(t, world.organization.id, 'Bureau', world.admin.id)
    await rename(world.admin.id, { firstName: '', lastName: '' })
    const other = await signedInMember(t, world.organization.id, 'ADMIN')
    const jobs = await alertJobs(world.organization.id, world.admin.id)
    expect(jobs.map((job) => (job.payload as { to: string }).to)).toEqual([other.email])
    expect((jobs[0]!.payload as { subject: string }).subject).toBe(
      `${world.admin.email} a quitté Agence avec 1 trousseau`,
    )
  })

  it('come for keychains alone and for open transfers alone, counting neither deleted keychains nor closed or other organizations’ transfers', async () => {
    const world = await transferWorld(t)
    // The member holds one keychain and nothing else is open to them.
    expect(await alertJobs(world.organization.id, world.member.id)).toHaveLength(1)
    // The contact holds no keychain; a transfer to them is open.
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
    })
    const [onlyTransfer] = await alertJobs(world.organization.id, world.contact.id)
    expect((onlyTransfer!.payload as { subject: string }).subject).toBe(
      `${world.contact.email} a quitté Agence avec 0 trousseau`,
    )
    expect((onlyTransfer!.payload as { text: string }).text).toContain(
      'ne détient aucun trousseau et a 1 transfert en cours',
    )
    // Someone whose keychain was deleted, whose transfers are over, or who holds things elsewhere: nothing.
    const leaver = await signedInMember(t, world.organization.id, 'MEMBER')
    const deleted = await makeKeychain(t, world.organization.id, 'Supprimé', leaver.id)
    await t.db.update(keychains).set({ deletedAt: t.clock.now() }).where(eq(keychains.id, deleted.id))
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: leaver.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-12',
    })
    await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: leaver.id,
      status: 'CANCELLED',
    })
    const elsewhere = await organizationWithAdmin(t, 'Ailleurs')
    const theirs = await makeKeychain(t, elsewhere.organization.id, 'Chez eux', leaver.id)
    await makeTransfer(t, {
      organizationId: elsewhere.organization.id,
      keychainId: theirs.id,
      recipientId: leaver.id,
    })
    expect(await alertJobs(world.organization.id, leaver.id)).toEqual([])
  })
})

describe('the list of leavers', () => {
  it('has the disabled members who still hold keychains or have transfers open, most keychains first, then by name and address', async () => {
    const world = await transferWorld(t)
    const org = world.organization.id
    const member = async (
      names: { firstName: string; lastName: string; email?: string },
      status: 'ACTIVE' | 'DISABLED' = 'DISABLED',
    ) => {
      const person = await signedInMember(t, org, 'MEMBER', { status })
      await rename(person.id, names)
      return person.id
    }
    const hold = (userId: string, count: number, organizationId = org) =>
      Promise.all(Array.from({ length: count }, (_, i) => makeKeychain(t, organizationId, `K${i}`, userId)))
    const open = (userId: string, options: Partial<Parameters<typeof makeTransfer>[1]> = {}) =>
      makeTransfer(t, { organizationId: org, keychainId: world.keychain.id, recipientId: userId, ...options })
    const suffix = `${Date.now()}${Math.floor(Math.random() * 1000)}`
    const most = await member({ firstName: 'Zoé', lastName: 'Zola' })
    await hold(most, 2)
    const abelZoe = await member({ firstName: 'Zoé', lastName: 'Abel' })
    await hold(abelZoe, 1)
    await open(abelZoe)
    await open(abelZoe, { status: 'TRANSFERRED', fromDate: '2030-01-10', toDate: '2030-01-12' })
    await open(abelZoe, { status: 'CANCELLED' })
    const abelAnneB = await member({ firstName: 'Anne', lastName: 'Abel', email: `b${suffix}@leavers.test` })
    await hold(abelAnneB, 1)
    const abelAnneA = await member({ firstName: 'Anne', lastName: 'Abel', email: `a${suffix}@leavers.test` })
    await hold(abelAnneA, 1)
    const transfersOnly = await member({ firstName: 'Aaron', lastName: 'Aa' })
    await open(transfersOnly)
    // Not leavers: still active, nothing held (a deleted keychain, an expired transfer), or held elsewhere.
    await hold(await member({ firstName: 'Active', lastName: 'A' }, 'ACTIVE'), 3)
    const emptyHanded = await member({ firstName: 'Empty', lastName: 'A' })
    const [gone] = await hold(emptyHanded, 1)
    await t.db.update(keychains).set({ deletedAt: t.clock.now() }).where(eq(keychains.id, gone!.id))
    await open(emptyHanded, { fromDate: '2030-01-10', toDate: '2030-01-12' })
    const elsewhere = await organizationWithAdmin(t, 'Ailleurs')
    const other = await member({ firstName: 'Other', lastName: 'A' })
    const [theirs] = await hold(other, 2, elsewhere.organization.id)
    await makeTransfer(t, {
      organizationId: elsewhere.organization.id,
      keychainId: theirs!.id,
      recipientId: other,
    })
    const rows = await listLeavers(t.db, org, t.clock.now())
    expect(rows.map((row) => [row.user.id, row.keychains, row.transfers])).toEqual([
      [most, 2, 0],
      [abelAnneA, 1, 0],
      [abelAnneB, 1, 0],
      [abelZoe, 1, 2],
      [transfersOnly, 0, 1],
    ])
    const [zola] = await t.db.select().from(users).where(eq(users.id, most))
    expect(rows[0]!.user).toEqual(zola)
    // The same people, for another organization: none of them left it.
    expect(await listLeavers(t.db, elsewhere.organization.id, t.clock.now())).toEqual([])
  })
})
