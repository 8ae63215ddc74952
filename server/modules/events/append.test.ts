// appendEvent(): one entry of the organization's log, numbered after the last, with every field as given.
import { randomUUID } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { organizationEvents } from '../../db/schema.ts'
import { verifyChain } from '../activity/chain.ts'
import { appendEvent } from './append.ts'

const t = setupTestApp()

const entries = (organizationId: string) =>
  t.db
    .select()
    .from(organizationEvents)
    .where(eq(organizationEvents.organizationId, organizationId))
    .orderBy(asc(organizationEvents.seq))

describe('appendEvent()', () => {
  it('writes every field as given, each id once and in the order given', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const before = (await entries(organization.id)).length
    const [k1, k2, g1, x1, x2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID(), randomUUID()]
    const clientTime = new Date('2030-01-15T07:59:00.000Z')
    await appendEvent(t.db, {
      organizationId: organization.id,
      kind: 'keychain.updated',
      actorId: admin.id,
      serverTime: t.clock.now(),
      clientTime,
      fromQueue: true,
      keychainIds: [k1, k2, k1],
      tagIds: [g1, g1],
      transferIds: [x1, x2],
      payload: { name: 'Cave', n: 2 },
    })
    const all = await entries(organization.id)
    expect(all).toHaveLength(before + 1)
    expect(all.at(-1)).toMatchObject({
      seq: before + 1,
      kind: 'keychain.updated',
      actorId: admin.id,
      clientTime,
      serverTime: t.clock.now(),
      fromQueue: true,
      keychainIds: [k1, k2],
      tagIds: [g1],
      transferIds: [x1, x2],
      payload: { name: 'Cave', n: 2 },
    })
  })

  it('takes no device time, no queue, no ids and an empty payload when they are not given', async () => {
    const { organization } = await organizationWithAdmin(t)
    await appendEvent(t.db, {
      organizationId: organization.id,
      kind: 'keychain.updated',
      actorId: null,
      serverTime: t.clock.now(),
    })
    expect((await entries(organization.id)).at(-1)).toMatchObject({
      actorId: null,
      clientTime: null,
      fromQueue: false,
      keychainIds: [],
      tagIds: [],
      transferIds: [],
      payload: {},
    })
    expect(await verifyChain(t.db, organization.id)).toMatchObject({ valid: true })
  })
})
