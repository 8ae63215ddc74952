// The app icon's badge (issue 42): the keychains I hold a day past their to-date, and the extension requests waiting
// in the organizations I manage. Rows are inserted directly; the count is read at chosen instants.
import { describe, expect, it } from 'vitest'
import type { Role } from '../../../contract/permissions.ts'
import { RETURN_GRACE_MS } from '../../../contract/transfers.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { addMember, createOrganization } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch, uniqueEmail } from '../../../tests/server/harness.ts'
import { type MEMBERSHIP_STATUSES, transferExtensions, transfers, users } from '../../db/schema.ts'
import { badgeCount } from './badge.ts'

const t = setupTestAppAtEpoch()

async function person() {
  const [row] = await t.db
    .insert(users)
    .values({ email: uniqueEmail(), createdAt: t.clock.now(), lastSeenAt: t.clock.now() })
    .returning({ id: users.id })
  return row!.id
}

/** An organization where `userId` has `role`, ACTIVE unless told. */
async function organizationOf(
  userId: string,
  role: Role,
  status: (typeof MEMBERSHIP_STATUSES)[number] = 'ACTIVE',
) {
  const organization = await createOrganization(t, 'Agence')
  await addMember(t, { userId, organizationId: organization.id, role, status, select: false })
  return organization.id
}

/** The day a transfer's window ends (its to-date's start): the badge counts it a day later. */
const ENDS_AT = new Date('2030-01-20T23:00:00.000Z')

async function transfer(
  organizationId: string,
  recipientId: string,
  status: (typeof transfers.$inferInsert)['status'] = 'TRANSFERRED',
  endsAt = ENDS_AT,
) {
  const [row] = await t.db
    .insert(transfers)
    .values({
      organizationId,
      keychainId: crypto.randomUUID(),
      keychainName: 'Cave',
      recipientId,
      fromDate: '2030-01-15',
      toDate: '2030-01-21',
      startsAt: new Date(endsAt.getTime() - 6 * DAY),
      endsAt,
      status,
      createdAt: t.clock.now(),
    })
    .returning({ id: transfers.id })
  return row!.id
}

async function extensionRequest(
  organizationId: string,
  status: (typeof transferExtensions.$inferInsert)['status'] = 'PENDING',
) {
  const holder = await person()
  await t.db.insert(transferExtensions).values({
    transferId: await transfer(organizationId, holder, 'TRANSFERRED', new Date('2030-03-01T00:00:00.000Z')),
    requestedById: holder,
    previousToDate: '2030-03-01',
    toDate: '2030-03-05',
    status,
    requestedAt: t.clock.now(),
  })
}

describe('badgeCount', () => {
  it('is 0 for a person with nothing waiting', async () => {
    expect(await badgeCount(t.db, await person(), t.clock.now())).toBe(0)
  })

  it('counts a keychain I hold from a day after its to-date’s start, not a millisecond before', async () => {
    const holder = await person()
    const organizationId = await organizationOf(holder, 'MEMBER')
    await transfer(organizationId, holder)
    const due = ENDS_AT.getTime() + RETURN_GRACE_MS
    expect(RETURN_GRACE_MS).toBe(DAY)
    expect(await badgeCount(t.db, holder, ENDS_AT)).toBe(0)
    expect(await badgeCount(t.db, holder, new Date(due - 1))).toBe(0)
    expect(await badgeCount(t.db, holder, new Date(due))).toBe(1)
    expect(await badgeCount(t.db, holder, new Date(due + 1))).toBe(1)
    await transfer(organizationId, holder, 'TRANSFERRED', new Date(ENDS_AT.getTime() + 1))
    expect(await badgeCount(t.db, holder, new Date(due))).toBe(1)
    expect(await badgeCount(t.db, holder, new Date(due + 1))).toBe(2)
  })

  it('counts only keychains held now: not those to pick up, returned or cancelled, nor another person’s', async () => {
    const holder = await person()
    const neighbour = await person()
    const organizationId = await organizationOf(holder, 'MEMBER')
    for (const status of ['SCHEDULED', 'RETURNED', 'CANCELLED'] as const)
      await transfer(organizationId, holder, status)
    await transfer(organizationId, neighbour)
    const later = new Date(ENDS_AT.getTime() + 10 * DAY)
    expect(await badgeCount(t.db, holder, later)).toBe(0)
    expect(await badgeCount(t.db, neighbour, later)).toBe(1)
  })

  it('counts the extension requests waiting in the organizations I administer or manage, actively', async () => {
    const me = await person()
    const administered = await organizationOf(me, 'ADMIN')
    const managed = await organizationOf(me, 'MANAGER')
    const memberOnly = await organizationOf(me, 'MEMBER')
    const contactOnly = await organizationOf(me, 'CONTACT')
    const invited = await organizationOf(me, 'ADMIN', 'INVITED')
    const disabled = await organizationOf(me, 'MANAGER', 'DISABLED')
    const elsewhere = await organizationOf(await person(), 'ADMIN')
    await extensionRequest(administered)
    await extensionRequest(administered)
    await extensionRequest(managed)
    for (const organizationId of [memberOnly, contactOnly, invited, disabled, elsewhere]) {
      await extensionRequest(organizationId)
    }
    // Requests already answered wait for no one.
    await extensionRequest(administered, 'APPROVED')
    await extensionRequest(managed, 'REFUSED')
    expect(await badgeCount(t.db, me, t.clock.now())).toBe(3)
  })

  it('adds the keychains I hold overdue to the requests I have to answer', async () => {
    const me = await person()
    const organizationId = await organizationOf(me, 'MANAGER')
    await transfer(organizationId, me)
    await transfer(organizationId, me)
    await extensionRequest(organizationId)
    const later = new Date(ENDS_AT.getTime() + 2 * DAY)
    expect(await badgeCount(t.db, me, later)).toBe(3)
    // The requests I asked for myself are for my managers: only the holder's keychain counts for them.
    const other = await person()
    expect(await badgeCount(t.db, other, later)).toBe(0)
  })
})
