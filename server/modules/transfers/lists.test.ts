import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { isExpired, transferStatus } from '../../../contract/transfer-state.ts'
import { RETURN_GRACE_MS, TRANSFER_STATUSES } from '../../../contract/transfers.ts'
import { DAY, HOUR, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { makeKeychain, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  allTransfers,
  makeTransfer,
  pickup,
  scheduledTransfer,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { memberships, transfers } from '../../db/schema.ts'

const t = setupTestAppAtEpoch()

const all = (path: string, cookie: string, limit = 2) => allTransfers(t, path, cookie, limit)

/**
 * An organization with transfers in every state at TEST_EPOCH: SCHEDULED (open, upcoming, expired),
 * TRANSFERRED, RETURNING (in grace, overdue), RETURNED, CANCELLED; to its CONTACT unless said otherwise.
 */
async function busyOrganization() {
  const world = await transferWorld(t)
  const { organization, contact, member } = world
  const make = async (
    status: 'SCHEDULED' | 'TRANSFERRED' | 'RETURNED' | 'CANCELLED',
    from: string,
    to: string,
    recipientId = contact.id,
  ) =>
    makeTransfer(t, {
      organizationId: organization.id,
      keychainId: (await makeKeychain(t, organization.id, `${status} ${from}`)).id,
      recipientId,
      fromDate: from,
      toDate: to,
      status,
    })
  const made = {
    open: await make('SCHEDULED', '2030-01-15', '2030-01-17'),
    upcoming: await make('SCHEDULED', '2030-01-20', '2030-01-22', member.id),
    expired: await make('SCHEDULED', '2030-01-10', '2030-01-12'),
    out: await make('TRANSFERRED', '2030-01-14', '2030-01-18'),
    returning: await make('TRANSFERRED', '2030-01-13', '2030-01-15'),
    overdue: await make('TRANSFERRED', '2030-01-10', '2030-01-13', member.id),
    returned: await make('RETURNED', '2030-01-05', '2030-01-07'),
    cancelled: await make('CANCELLED', '2030-01-16', '2030-01-17'),
  }
  return { ...world, made }
}

describe('GET /transfers', () => {
  it('lists the organization’s transfers newest window first, page by page; a CONTACT sees only theirs', async () => {
    const { admin, contact, made } = await busyOrganization()
    const listed = await all('/api/transfers', admin.cookie)
    expect(listed).toHaveLength(8)
    const starts = listed.map((each) => each.startsAt)
    expect(starts).toEqual([...starts].sort().reverse())
    expect(listed.find((each) => each.id === made.returning.id)).toMatchObject({
      status: 'RETURNING',
      expired: false,
    })
    expect(listed.find((each) => each.id === made.overdue.id)).toMatchObject({
      status: 'RETURNING',
      expired: true,
    })

    const theirs = await all('/api/transfers', contact.cookie)
    expect(theirs.map((each) => each.id).sort()).toEqual(
      [made.open, made.expired, made.out, made.returning, made.returned, made.cancelled]
        .map((each) => each.id)
        .sort(),
    )
  })

  it('filters on the computed status and expiry exactly as the views compute them, at any time', async () => {
    const { admin, organization } = await busyOrganization()
    const rows = await t.db.select().from(transfers)
    const ours = rows.filter((row) => row.organizationId === organization.id)
    const { cookie } = admin
    for (const offset of [
      0,
      14 * HOUR - 1,
      14 * HOUR,
      2 * DAY - 10 * HOUR,
      3 * DAY,
      3 * DAY + 14 * HOUR - 1,
      3 * DAY + 14 * HOUR,
    ]) {
      t.clock.set(new Date(TEST_EPOCH.getTime() + offset))
      const now = t.clock.now()
      for (const status of TRANSFER_STATUSES) {
        for (const expired of [undefined, true, false]) {
          const query = `status=${status}${expired === undefined ? '' : `&expired=${expired}`}`
          const listed = (await all(`/api/transfers?${query}`, cookie, 100)).map((each) => each.id).sort()
          const expected = ours
            .filter((row) => transferStatus(row, now) === status)
            .filter((row) => expired === undefined || isExpired(row, now) === expired)
            .map((row) => row.id)
            .sort()
          expect(listed, `${query} at ${now.toISOString()}`).toEqual(expected)
        }
      }
    }
  })

  it('answers 400 for an unknown status, a bad expired flag or a malformed cursor', async () => {
    const { admin } = await transferWorld(t)
    for (const query of ['status=LOST', 'expired=yes', 'cursor=abc', 'limit=0']) {
      expect((await t.get(`/api/transfers?${query}`, { cookie: admin.cookie })).status, query).toBe(400)
    }
  })

  it('answers 400 with a code for a malformed id on every transfer route, and a bad requests filter', async () => {
    const { admin, contact } = await transferWorld(t)
    const key = { 'idempotency-key': randomUUID() }
    const answers = [
      await t.get('/api/transfers/not-an-id', { cookie: admin.cookie }),
      await t.delete('/api/transfers/not-an-id', { cookie: admin.cookie }),
      await t.post('/api/transfers/not-an-id/pickups', { cookie: contact.cookie, headers: key }),
      await t.get('/api/keychains/not-an-id/transfers', { cookie: admin.cookie }),
      await t.post('/api/keychains/not-an-id/transfers', { cookie: admin.cookie, json: {} }),
      await t.get('/api/transfers/requests?open=maybe', { cookie: contact.cookie }),
    ]
    for (const response of answers) {
      expect(response.status).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
  })
})

describe('expiry at the boundaries, through the API', () => {
  it('expires a SCHEDULED transfer at endsAt and a RETURNING one at endsAt + 24 h', async () => {
    const { admin, contact, transfer } = await scheduledTransfer(t)
    const view = async () => (await t.get(`/api/transfers/${transfer.id}`, { cookie: admin.cookie })).json()
    const end = transfer.endsAt.getTime()
    t.clock.set(new Date(end - 1))
    expect(await view()).toMatchObject({ status: 'SCHEDULED', expired: false })
    t.clock.set(new Date(end))
    expect(await view()).toMatchObject({
      status: 'SCHEDULED',
      expired: true,
      expiresAt: transfer.endsAt.toISOString(),
    })

    t.clock.set(new Date(end - HOUR))
    await pickup(t, contact.cookie, transfer.id)
    t.clock.set(new Date(end - 1))
    expect(await view()).toMatchObject({ status: 'TRANSFERRED', expired: false })
    t.clock.set(new Date(end))
    expect(await view()).toMatchObject({ status: 'RETURNING', expired: false })
    t.clock.set(new Date(end + RETURN_GRACE_MS - 1))
    expect(await view()).toMatchObject({ status: 'RETURNING', expired: false })
    t.clock.set(new Date(end + RETURN_GRACE_MS))
    expect(await view()).toMatchObject({
      status: 'RETURNING',
      expired: true,
      expiresAt: new Date(end + RETURN_GRACE_MS).toISOString(),
    })
  })
})

describe('GET /stats/dashboard', () => {
  it('counts what the filtered lists list', async () => {
    const { admin, member, contact, organization } = await busyOrganization()
    for (const offset of [0, 3 * DAY + 14 * HOUR]) {
      t.clock.set(new Date(TEST_EPOCH.getTime() + offset))
      const dashboard = await (await t.get('/api/stats/dashboard', { cookie: admin.cookie })).json()
      const count = async (query: string) => (await all(`/api/transfers?${query}`, admin.cookie, 100)).length
      const ids = async (query: string) =>
        (await all(`/api/transfers?${query}`, admin.cookie, 100))
          .map((each: { id: string }) => each.id)
          .sort()
      const listed = (items: Array<{ transferId: string }>) => items.map((item) => item.transferId).sort()
      expect(listed(dashboard.organization.returns.dueToday)).toEqual(
        await ids('status=RETURNING&expired=false'),
      )
      expect(listed(dashboard.organization.returns.overdue)).toEqual(
        await ids('status=RETURNING&expired=true'),
      )
      // The quick filter "overdue" of the list is the dashboard's overdue list.
      expect(listed(dashboard.organization.returns.overdue)).toEqual(await ids('when=overdue'))
      expect(dashboard.organization).toEqual({
        returns: expect.any(Object),
        // The allowance, the setup checklist and the caller's own keychains: the dashboard's own tests.
        allowance: expect.any(Object),
        setup: expect.any(Object),
        mine: expect.any(Object),
        id: organization.id,
        keychains: 9, // the world's and one for each of the eight transfers
        transfers: await count(''),
        users: (await (await t.get('/api/users', { cookie: admin.cookie })).json()).data.length,
        active: {
          scheduled: await count('status=SCHEDULED&expired=false'),
          transferred: await count('status=TRANSFERRED'),
          returning: await count('status=RETURNING&expired=false'),
        },
        expired: {
          scheduled: await count('status=SCHEDULED&expired=true'),
          returning: await count('status=RETURNING&expired=true'),
        },
      })
      for (const person of [contact, member]) {
        const theirs = await (await t.get('/api/stats/dashboard', { cookie: person.cookie })).json()
        const open = await all('/api/transfers/requests?open=true', person.cookie, 100)
        expect(theirs.requests.open).toBe(open.length)
      }
    }
    const atStart = await (await t.get('/api/stats/dashboard', { cookie: contact.cookie })).json()
    expect(atStart.organization).toBeNull()
  })

  it('has no organization part without a selected organization', async () => {
    const { cookie } = await t.signIn(`nobody-${randomUUID()}@example.test`)
    expect(await (await t.get('/api/stats/dashboard', { cookie })).json()).toEqual({
      organization: null,
      requests: { open: 0 },
    })
  })
})

describe('GET /transfers/requests, /transfers/{id}, /keychains/{id}/transfers', () => {
  it('lists the caller’s transfers in all their organizations, open ones first', async () => {
    const { contact, made } = await busyOrganization()
    const elsewhere = await transferWorld(t, { name: 'Elsewhere' })
    await t.db.insert(memberships).values({
      userId: contact.id,
      organizationId: elsewhere.organization.id,
      role: 'CONTACT',
      status: 'ACTIVE',
      createdAt: t.clock.now(),
    })
    const remote = await makeTransfer(t, {
      organizationId: elsewhere.organization.id,
      keychainId: elsewhere.keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-25',
      toDate: '2030-01-26',
    })
    const listed = await all('/api/transfers/requests', contact.cookie)
    const open = [remote, made.open, made.out, made.returning]
    const closed = [made.cancelled, made.expired, made.returned]
    expect(listed.map((each) => each.id)).toEqual([...open, ...closed].map((each) => each.id))
    expect((await all('/api/transfers/requests?open=false', contact.cookie)).map((each) => each.id)).toEqual(
      closed.map((each) => each.id),
    )
    // Seen from any organization: the remote one while another is selected.
    expect((await t.get(`/api/transfers/${remote.id}`, { cookie: contact.cookie })).status).toBe(200)
  })

  it('shows a transfer to its recipient and the organization’s members, never to other CONTACTs or outsiders', async () => {
    const { organization, admin, member, made } = await busyOrganization()
    const path = `/api/transfers/${made.open.id}`
    for (const person of [admin, member])
      expect((await t.get(path, { cookie: person.cookie })).status).toBe(200)
    const otherContact = await signedInMember(t, organization.id, 'CONTACT')
    expect((await t.get(path, { cookie: otherContact.cookie })).status).toBe(404)
    const outsider = await transferWorld(t, { name: 'Outsider' })
    expect((await t.get(path, { cookie: outsider.admin.cookie })).status).toBe(404)
    expect((await t.get(`/api/transfers/${randomUUID()}`, { cookie: admin.cookie })).status).toBe(404)
  })

  it('lists a keychain’s transfers; another organization’s keychain is a 404', async () => {
    const { organization, admin, member, contact, keychain } = await transferWorld(t)
    for (const [from, to] of [
      ['2030-01-15', '2030-01-16'],
      ['2030-01-20', '2030-01-21'],
      ['2030-01-17', '2030-01-18'],
    ] as const) {
      await makeTransfer(t, {
        organizationId: organization.id,
        keychainId: keychain.id,
        recipientId: contact.id,
        fromDate: from,
        toDate: to,
      })
    }
    const listed = await all(`/api/keychains/${keychain.id}/transfers`, member.cookie)
    expect(listed.map((each) => each.fromDate)).toEqual(['2030-01-20', '2030-01-17', '2030-01-15'])
    const other = await transferWorld(t, { name: 'Other' })
    expect(
      (await t.get(`/api/keychains/${other.keychain.id}/transfers`, { cookie: admin.cookie })).status,
    ).toBe(404)
    expect((await t.get(`/api/keychains/${keychain.id}/transfers`, { cookie: contact.cookie })).status).toBe(
      403,
    )
  })
})
