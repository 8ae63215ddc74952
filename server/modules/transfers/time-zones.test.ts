import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { authorize, dates, toMember, transferWorld } from '../../../tests/server/transfers.ts'
import { organizations } from '../../db/schema.ts'
import { transfersUsedThisMonth } from '../subscriptions/service.ts'

/** An organization in New York: its days and months are New York's, not Paris's. */
const t = setupTestApp()

async function newYorkWorld(allowance: number) {
  const world = await transferWorld(t, { allowance })
  await t.db
    .update(organizations)
    .set({ timeZone: 'America/New_York' })
    .where(eq(organizations.id, world.organization.id))
  return world
}

describe('an organization in another time zone than Paris', () => {
  it('counts the month’s transfers by its own calendar month, and renews at its own midnight', async () => {
    // 31 January 22:00 in New York: already 1 February in Paris.
    t.clock.set('2030-02-01T03:00:00.000Z')
    const { organization, admin, contact, keychain } = await newYorkWorld(1)
    const first = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-31', '2030-02-02'),
    )
    expect(first.status).toBe(201)
    expect(await first.json()).toMatchObject({
      fromDate: '2030-01-31',
      startsAt: '2030-01-31T05:00:00.000Z',
      endsAt: '2030-02-02T05:00:00.000Z',
    })
    const other = await makeKeychain(t, organization.id, 'Other')
    const over = await authorize(
      t,
      admin.cookie,
      other.id,
      dates(toMember(contact.id), '2030-02-01', '2030-02-03'),
    )
    expect(over.status).toBe(402)
    expect((await over.json()).error).toMatchObject({
      code: 'transfer_allowance_exceeded',
      used: 1,
      allowance: 1,
      renewsAt: '2030-02-01T05:00:00.000Z',
    })
    // February in New York: the allowance is back.
    t.clock.set('2030-02-01T05:00:00.000Z')
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(0)
    const february = await authorize(
      t,
      admin.cookie,
      other.id,
      dates(toMember(contact.id), '2030-02-01', '2030-02-03'),
    )
    expect(february.status).toBe(201)
  })

  it('reads “today” in its own zone: the from-date may not be yesterday there', async () => {
    // 1 February 01:00 in Paris is still 31 January in New York.
    t.clock.set('2030-02-01T00:00:00.000Z')
    const { admin, contact, keychain } = await newYorkWorld(5)
    const today = await authorize(
      t,
      admin.cookie,
      keychain.id,
      dates(toMember(contact.id), '2030-01-31', '2030-02-01'),
    )
    expect(today.status).toBe(201)
    const paris = await transferWorld(t, { allowance: 5, name: 'Paris' })
    const yesterdayInParis = await authorize(
      t,
      paris.admin.cookie,
      paris.keychain.id,
      dates(toMember(paris.contact.id), '2030-01-31', '2030-02-02'),
    )
    expect(yesterdayInParis.status).toBe(400)
  })
})
