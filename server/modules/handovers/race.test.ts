import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { signedInMember } from '../../../tests/server/fixtures.ts'
import { handoverWorld, registeredDevice, signedPair, submitPair } from '../../../tests/server/handovers.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { custodyLog, handovers, keychains, organizationEvents } from '../../db/schema.ts'

const t = setupTestApp()

/**
 * Both phones syncing at once, and a keychain offered to two people at once. Every request is sent together
 * (Promise.all): on PostgreSQL they really run concurrently, custody decided under the keychain's row lock; PGlite
 * runs them one at a time. Either way the keychain changes hands exactly once.
 */
describe('handovers at the same moment', () => {
  it('the same pair sent by both people, several times: one change, one 201, the others its 200', async () => {
    const w = await handoverWorld(t)
    const pair = await signedPair(t, {
      organizationId: w.organization.id,
      keychainId: w.keychain.id,
      giver: w.giverPhone,
      receiver: w.receiverPhone,
    })
    const senders = [w.giver, w.receiver, w.giver, w.receiver, w.giver, w.receiver]
    const answers = await Promise.all(senders.map((sender) => submitPair(t, sender, pair)))
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 200, 201])
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    for (const body of bodies) expect(body).toEqual(bodies[0])
    expect(await t.db.$count(custodyLog, eq(custodyLog.keychainId, w.keychain.id))).toBe(1)
    expect(await t.db.$count(handovers, eq(handovers.organizationId, w.organization.id))).toBe(1)
    const events = await t.db
      .select()
      .from(organizationEvents)
      .where(
        and(
          eq(organizationEvents.organizationId, w.organization.id),
          eq(organizationEvents.kind, 'keychain.handed_over'),
        ),
      )
    expect(events).toHaveLength(1)
  })

  it('two offers of one keychain to two people: exactly one applied, the other refused as a conflict', async () => {
    const w = await handoverWorld(t)
    const other = await signedInMember(t, w.organization.id, 'MEMBER')
    const otherPhone = await registeredDevice(t, other)
    const offers = await Promise.all(
      [w.receiverPhone, otherPhone].map((receiver) =>
        signedPair(t, {
          organizationId: w.organization.id,
          keychainId: w.keychain.id,
          giver: w.giverPhone,
          receiver,
        }),
      ),
    )
    // Each pair from both of its people, all at once.
    const sends = [
      [w.receiver, offers[0]!],
      [other, offers[1]!],
      [w.giver, offers[0]!],
      [w.giver, offers[1]!],
    ] as const
    const answers = await Promise.all(sends.map(([sender, pair]) => submitPair(t, sender, pair)))
    const bodies = await Promise.all(answers.map((answer) => answer.json()))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 409)).toHaveLength(2)
    for (const [index, body] of bodies.entries()) {
      if (statuses[index] === 409)
        expect(body.error).toMatchObject({ code: 'handover_refused', reason: 'conflict' })
    }
    const rows = await t.db.select().from(handovers).where(eq(handovers.organizationId, w.organization.id))
    expect(rows.map((row) => row.status).sort()).toEqual(['APPLIED', 'REFUSED'])
    const applied = rows.find((row) => row.status === 'APPLIED')!
    const [keychain] = await t.db.select().from(keychains).where(eq(keychains.id, w.keychain.id))
    expect(keychain!.custodianId).toBe(applied.receiverId)
    expect(await t.db.$count(custodyLog, eq(custodyLog.keychainId, w.keychain.id))).toBe(1)
  })
})
