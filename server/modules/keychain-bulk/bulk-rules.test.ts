import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { makeKeychain, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { makeTransfer } from '../../../tests/server/transfers.ts'
import { custodyLog, keychains } from '../../db/schema.ts'

const t = setupTestApp()

const custodian = (cookie: string, json: unknown) =>
  t.post('/api/keychain-bulk/custodian-changes', {
    cookie,
    json,
    headers: { 'idempotency-key': randomUUID() },
  })
const custodianOf = async (id: string) =>
  (await t.db.select().from(keychains).where(eq(keychains.id, id)))[0]?.custodianId

async function world(names: string[]) {
  const { organization, admin } = await organizationWithAdmin(t, 'Règles')
  const lea = await signedInMember(t, organization.id, 'MEMBER')
  const paul = await signedInMember(t, organization.id, 'MEMBER')
  const made = []
  for (const [index, name] of names.entries())
    made.push(await makeKeychain(t, organization.id, name, index % 2 === 0 ? lea.id : paul.id))
  return { organization, admin, lea, paul, keychains: made }
}

describe('bulk custodian changes, their selection and refusals', () => {
  it('counts a keychain named twice once, and gives it to nobody with the reason kept', async () => {
    const w = await world(['Cave', 'Garage'])
    const [cave] = w.keychains
    const response = await custodian(w.admin.cookie, {
      ids: [cave!.id, cave!.id],
      custodianId: null,
      reason: 'Rendu au bureau',
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ count: 1, unchanged: 0 })
    expect(await custodianOf(cave!.id)).toBeNull()
    const log = await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, cave!.id))
    expect(log).toEqual([
      expect.objectContaining({
        fromUserId: w.lea.id,
        toUserId: null,
        byUserId: w.admin.profile.id,
        reason: 'Rendu au bureau',
      }),
    ])
  })

  it('by filter, takes the search and the custodian together', async () => {
    const w = await world(['Cave nord', 'Cave sud', 'Cave est', 'Garage'])
    // Léa holds Cave nord, Cave est; Paul Cave sud, Garage.
    const response = await custodian(w.admin.cookie, {
      filter: { q: 'CAVE', custodianId: w.paul.id },
      custodianId: w.lea.id,
      reason: 'Tournée',
    })
    expect(await response.json()).toEqual({ count: 1, unchanged: 0 })
    expect(await Promise.all(w.keychains.map((keychain) => custodianOf(keychain.id)))).toEqual([
      w.lea.id,
      w.lea.id,
      w.lea.id,
      w.paul.id,
    ])
  })

  it('refuses a custodian who is not a member, saying which field', async () => {
    const w = await world(['Cave'])
    const stranger = await organizationWithAdmin(t, 'Ailleurs')
    const response = await custodian(w.admin.cookie, {
      ids: [w.keychains[0]!.id],
      custodianId: stranger.admin.profile.id,
      reason: 'x',
    })
    expect(response.status).toBe(400)
    const message = 'The custodian must be a member of the organization.'
    expect((await response.json()).error).toMatchObject({
      code: 'validation_failed',
      message,
      issues: [{ path: 'custodianId', message }],
    })
    expect(await custodianOf(w.keychains[0]!.id)).toBe(w.lea.id)
  })

  it('names at most three of the keychains out on a transfer, then an ellipsis', async () => {
    const w = await world(['A1', 'A2', 'A3', 'A4', 'A5'])
    const recipient = await signedInMember(t, w.organization.id, 'CONTACT')
    const out = async (index: number) =>
      makeTransfer(t, {
        organizationId: w.organization.id,
        keychainId: w.keychains[index]!.id,
        recipientId: recipient.id,
        status: 'TRANSFERRED',
      })
    await out(1)
    const one = await custodian(w.admin.cookie, {
      ids: w.keychains.map((k) => k.id),
      custodianId: recipient.id,
      reason: 'x',
    })
    expect(one.status).toBe(409)
    expect((await one.json()).error.message).toBe(
      '1 of these keychains are out on a transfer (A2): their custodian changes when they are returned. Nothing was changed.',
    )
    for (const index of [0, 2, 3]) await out(index)
    const four = await custodian(w.admin.cookie, {
      ids: w.keychains.map((k) => k.id),
      custodianId: recipient.id,
      reason: 'x',
    })
    const { message } = (await four.json()).error
    expect(message).toMatch(/^4 of these keychains are out on a transfer \((A\d, ){2}A\d…\): /)
  })
})
