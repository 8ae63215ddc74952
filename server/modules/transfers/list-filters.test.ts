import { describe, expect, it } from 'vitest'
import { isExpired, transferStatus } from '../../../contract/transfer-state.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { DAY, HOUR, TEST_EPOCH } from '../../../tests/server/clock.ts'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import {
  allTransfers,
  authorize,
  dates,
  makeTransfer,
  toMember,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { transfers } from '../../db/schema.ts'

const t = setupTestAppAtEpoch()

/** Every item of a list, page by page (`limit` a page). */
const all = (path: string, cookie: string, limit = 2) => allTransfers(t, path, cookie, limit)

/**
 * At TEST_EPOCH (2030-01-15, 10:00 in Paris): transfers opening today, due back today, out, late, cancelled
 * today, returned; to the CONTACT unless said otherwise.
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
    opensToday: await make('SCHEDULED', '2030-01-15', '2030-01-17'),
    upcoming: await make('SCHEDULED', '2030-01-20', '2030-01-22', member.id),
    expiredUnused: await make('SCHEDULED', '2030-01-10', '2030-01-12'),
    out: await make('TRANSFERRED', '2030-01-14', '2030-01-18'),
    dueToday: await make('TRANSFERRED', '2030-01-13', '2030-01-15'),
    overdue: await make('TRANSFERRED', '2030-01-10', '2030-01-13', member.id),
    lateToo: await make('TRANSFERRED', '2030-01-11', '2030-01-14'),
    returnedToday: await make('RETURNED', '2030-01-12', '2030-01-15'),
    cancelledToday: await make('CANCELLED', '2030-01-15', '2030-01-16'),
  }
  return { ...world, made }
}

const ids = (items: { id: string }[]) => items.map((item) => item.id).sort()

describe('GET /transfers?when=', () => {
  it('today: windows that open or are due back on the organization’s day, cancelled ones aside', async () => {
    const { admin, made } = await busyOrganization()
    expect(ids(await all('/api/transfers?when=today', admin.cookie))).toEqual(
      ids([made.opensToday, made.dueToday, made.returnedToday]),
    )
    expect(ids(await all('/api/transfers?when=today&status=SCHEDULED', admin.cookie))).toEqual(
      ids([made.opensToday]),
    )
  })

  it('today follows the organization’s time zone, not the server’s', async () => {
    const { admin, made } = await busyOrganization()
    // 2030-01-15 23:30 UTC is already the 16th in Paris: nothing opens or comes back that day.
    t.clock.set(new Date('2030-01-15T23:30:00.000Z'))
    expect(ids(await all('/api/transfers?when=today', admin.cookie))).toEqual([])
    t.clock.set(new Date('2030-01-15T22:59:59.000Z'))
    expect(ids(await all('/api/transfers?when=today', admin.cookie))).toEqual(
      ids([made.opensToday, made.dueToday, made.returnedToday]),
    )
  })

  it('overdue: picked up and not back a day after the to-date, as the views flag it, at any time', async () => {
    const { admin, organization } = await busyOrganization()
    const ours = (await t.db.select().from(transfers)).filter((row) => row.organizationId === organization.id)
    for (const offset of [0, 14 * HOUR - 1, 14 * HOUR, DAY + 14 * HOUR, 3 * DAY + 14 * HOUR]) {
      t.clock.set(new Date(TEST_EPOCH.getTime() + offset))
      const now = t.clock.now()
      const expected = ours
        .filter((row) => transferStatus(row, now) === 'RETURNING' && isExpired(row, now))
        .map((row) => row.id)
        .sort()
      expect(ids(await all('/api/transfers?when=overdue', admin.cookie)), now.toISOString()).toEqual(expected)
    }
    t.clock.set(TEST_EPOCH)
    expect(await all('/api/transfers?when=overdue', admin.cookie)).toHaveLength(2)
  })

  it('a CONTACT’s quick filter keeps to the transfers addressed to them', async () => {
    const { contact, made } = await busyOrganization()
    expect(ids(await all('/api/transfers?when=overdue', contact.cookie))).toEqual([made.lateToo.id])
    expect(ids(await all('/api/transfers?when=today', contact.cookie))).toEqual(
      ids([made.opensToday, made.dueToday, made.returnedToday]),
    )
  })
})

describe('GET /transfers?sort=&order=', () => {
  it('sorts by the window’s start or end, either way, the same rows page after page', async () => {
    const { admin, organization } = await busyOrganization()
    const rows = (await t.db.select().from(transfers)).filter((row) => row.organizationId === organization.id)
    for (const sort of ['start', 'end'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        const listed = await all(`/api/transfers?sort=${sort}&order=${order}`, admin.cookie, 2)
        const key = (row: { startsAt: Date; endsAt: Date; id: string }) =>
          `${(sort === 'start' ? row.startsAt : row.endsAt).toISOString()} ${row.id}`
        const expected = [...rows].sort((a, b) => (key(a) < key(b) ? -1 : 1)).map((row) => row.id)
        expect(
          listed.map((each) => each.id),
          `${sort} ${order}`,
        ).toEqual(order === 'asc' ? expected : expected.reverse())
      }
    }
  })

  it('keeps the default order (newest window first) and sorts a filtered list too', async () => {
    const { admin, made } = await busyOrganization()
    const byDefault = await all('/api/transfers', admin.cookie, 3)
    expect(byDefault.map((each) => each.id)).toEqual(
      (await all('/api/transfers?sort=start&order=desc', admin.cookie, 3)).map((each) => each.id),
    )
    const dueFirst = await all('/api/transfers?when=today&sort=end&order=asc', admin.cookie, 1)
    // Both due back today (ties in id order), then the one opening today.
    expect(dueFirst.map((each) => each.id)).toEqual([
      ...ids([made.dueToday, made.returnedToday]),
      made.opensToday.id,
    ])
  })

  it('answers 400 with a code for an unknown quick filter, sort or order', async () => {
    const { admin } = await transferWorld(t)
    for (const query of ['when=tomorrow', 'when=', 'sort=name', 'sort=START', 'order=up', 'order=']) {
      const response = await t.get(`/api/transfers?${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
      expect((await response.json()).error.code, query).toBe('validation_failed')
    }
  })
})

describe('GET /keychains/{id}/transfers/overlaps', () => {
  it('names the transfers that authorizing the window would refuse, and none when it goes through', async () => {
    const { admin, organization, member, contact } = await transferWorld(t, { allowance: 100 })
    const keychain = await makeKeychain(t, organization.id, 'Grenier')
    const taken = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: keychain.id,
      recipientId: contact.id,
      fromDate: '2030-01-17',
      toDate: '2030-01-20',
    })
    const late = await makeTransfer(t, {
      organizationId: organization.id,
      keychainId: (await makeKeychain(t, organization.id, 'Cellier')).id,
      recipientId: contact.id,
      fromDate: '2030-01-10',
      toDate: '2030-01-12',
      status: 'TRANSFERRED',
    })
    const ask = (keychainId: string, from: string, to: string) =>
      t.get(`/api/keychains/${keychainId}/transfers/overlaps?fromDate=${from}&toDate=${to}`, {
        cookie: admin.cookie,
      })
    // The window [from, to) of the taken transfer is half-open: ending on its from-date, or starting on its
    // to-date, is free.
    for (const [from, to, inTheWay] of [
      ['2030-01-15', '2030-01-17', false],
      ['2030-01-15', '2030-01-18', true],
      ['2030-01-19', '2030-01-22', true],
      ['2030-01-20', '2030-01-22', false],
    ] as const) {
      const answer = await ask(keychain.id, from, to)
      expect(answer.status).toBe(200)
      const { data } = (await answer.json()) as { data: Transfer[] }
      expect(ids(data), `${from} → ${to}`).toEqual(inTheWay ? [taken.id] : [])
      if (inTheWay) expect(data[0]).toMatchObject({ fromDate: '2030-01-17', toDate: '2030-01-20' })
      // The same answer as the authorization itself.
      const created = await authorize(t, admin.cookie, keychain.id, dates(toMember(member.id), from, to))
      expect(created.status, `${from} → ${to}`).toBe(inTheWay ? 409 : 201)
      if (!inTheWay) {
        const { id } = await created.json()
        await t.delete(`/api/transfers/${id}`, { cookie: admin.cookie })
      }
    }
    // A keychain still out after its to-date keeps its window open until it comes back.
    const overdue = await ask(late.keychainId, '2030-01-15', '2030-01-16')
    expect(ids((await overdue.json()).data)).toEqual([late.id])
  })

  it('answers 400 for missing or impossible dates, 404 for another organization’s keychain, 403 below MANAGER', async () => {
    const { admin, member, keychain } = await transferWorld(t)
    const base = `/api/keychains/${keychain.id}/transfers/overlaps`
    for (const query of [
      '',
      'fromDate=2030-01-15',
      'fromDate=2030-01-15&toDate=2030-01-15',
      'fromDate=2030-01-16&toDate=2030-01-15',
      'fromDate=2030-02-30&toDate=2030-03-02',
      'fromDate=15/01/2030&toDate=2030-01-17',
    ]) {
      const response = await t.get(`${base}?${query}`, { cookie: admin.cookie })
      expect(response.status, query).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
    const valid = 'fromDate=2030-01-15&toDate=2030-01-17'
    expect((await t.get(`${base}?${valid}`, { cookie: member.cookie })).status).toBe(403)
    const other = await organizationWithAdmin(t, 'Ailleurs')
    const theirs = await makeKeychain(t, other.organization.id, 'Leur trousseau')
    const foreign = await t.get(`/api/keychains/${theirs.id}/transfers/overlaps?${valid}`, {
      cookie: admin.cookie,
    })
    expect(foreign.status).toBe(404)
    const manager = await signedInMember(t, keychain.organizationId, 'MANAGER')
    expect((await t.get(`${base}?${valid}`, { cookie: manager.cookie })).status).toBe(200)
  })
})

describe('a list’s cursor as the server wrote it, or 400', () => {
  const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as string[]
  const encode = (key: string[]) => Buffer.from(JSON.stringify(key)).toString('base64url')

  async function firstCursor(path: string, cookie: string): Promise<string[]> {
    const response = await t.get(`${path}?limit=1`, { cookie })
    expect(response.status).toBe(200)
    const { nextCursor } = (await response.json()) as { nextCursor: string | null }
    expect(nextCursor).not.toBeNull()
    return decode(nextCursor!)
  }

  const status = async (path: string, cookie: string, key: string[]) =>
    (await t.get(`${path}?limit=1&cursor=${encode(key)}`, { cookie })).status

  it('refuses an organization list’s cursor whose id or instant was changed', async () => {
    const { admin } = await busyOrganization()
    const [startsAt, id] = (await firstCursor('/api/transfers', admin.cookie)) as [string, string]
    expect(await status('/api/transfers', admin.cookie, [startsAt, id])).toBe(200)
    for (const key of [
      [startsAt, `x${id}`],
      [startsAt, `${id}x`],
      [startsAt, 'not-an-id'],
      ['not an instant', id],
    ]) {
      expect(await status('/api/transfers', admin.cookie, key), JSON.stringify(key)).toBe(400)
    }
  })

  it('refuses a requests cursor whose rank is neither 0 nor 1', async () => {
    const { contact } = await busyOrganization()
    const [rank, startsAt, id] = (await firstCursor('/api/transfers/requests', contact.cookie)) as [
      string,
      string,
      string,
    ]
    expect(await status('/api/transfers/requests', contact.cookie, [rank, startsAt, id])).toBe(200)
    expect(await status('/api/transfers/requests', contact.cookie, ['1', startsAt, id])).toBe(200)
    expect(await status('/api/transfers/requests', contact.cookie, ['0', startsAt, id])).toBe(200)
    for (const bad of ['2', '-1', 'x']) {
      expect(await status('/api/transfers/requests', contact.cookie, [bad, startsAt, id]), bad).toBe(400)
    }
    expect(await status('/api/transfers/requests', contact.cookie, [rank, startsAt, `${id}0`])).toBe(400)
  })
})
