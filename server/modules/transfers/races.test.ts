import { eq } from 'drizzle-orm'
import { beforeEach, describe, expect, it } from 'vitest'
import { TEST_EPOCH } from '../../../tests/server/clock.ts'
import { operatorMove } from '../../../tests/server/commerce.ts'
import { makeKeychain, makeOrder, organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import {
  authorize,
  dates,
  pickup,
  scheduledTransfer,
  toMember,
  transferWorld,
} from '../../../tests/server/transfers.ts'
import { custodyLog, transferPickups } from '../../db/schema.ts'
import { transfersUsedThisMonth } from '../subscriptions/service.ts'

/**
 * Requests that compete for one thing, several at once. On PGlite (one connection) they queue; the PostgreSQL
 * run of the server suite (`npm run test:postgres`, CI sets TEST_DATABASE_URL) is where they truly overlap and
 * where a missing row lock or conditional update shows.
 */
const OPERATOR = 'ops@races.example.test'
const t = setupTestApp({ config: { operatorEmails: [OPERATOR] } })
const RACERS = 4

beforeEach(() => {
  t.clock.set(TEST_EPOCH)
})

const statuses = (answers: Response[]) => answers.map((answer) => answer.status).sort()

describe('racing requests', () => {
  it('lets exactly one of several authorizations take the last transfer of the month', async () => {
    const { organization, admin, contact } = await transferWorld(t, { allowance: 1 })
    const keychains = await Promise.all(
      Array.from({ length: RACERS }, (_, index) => makeKeychain(t, organization.id, `Race ${index}`)),
    )
    const answers = await Promise.all(
      keychains.map((keychain) => authorize(t, admin.cookie, keychain.id, dates(toMember(contact.id)))),
    )
    expect(statuses(answers)).toEqual([201, ...Array(RACERS - 1).fill(402)])
    expect(await transfersUsedThisMonth(t.db, organization.id, t.clock.now())).toBe(1)
  })

  it('applies exactly one of several identical order moves', async () => {
    const { organization } = await organizationWithAdmin(t)
    const operator = await t.signIn(OPERATOR)
    const order = await makeOrder(t, organization.id, { status: 'CONFIRMED' })
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () => operatorMove(t, operator.cookie, order.id, 'productions')),
    )
    expect(statuses(answers)).toEqual([200, ...Array(RACERS - 1).fill(409)])
    for (const refused of answers.filter((answer) => answer.status === 409))
      expect((await refused.json()).error).toMatchObject({ code: 'invalid_transition', allowed: ['SHIPPED'] })
  })

  it('records exactly one of several pickups of one transfer, with one custody entry', async () => {
    const { contact, keychain, transfer } = await scheduledTransfer(t)
    const answers = await Promise.all(
      Array.from({ length: RACERS }, () => pickup(t, contact.cookie, transfer.id)),
    )
    expect(statuses(answers)).toEqual([201, ...Array(RACERS - 1).fill(409)])
    const rows = await t.db.select().from(transferPickups).where(eq(transferPickups.transferId, transfer.id))
    expect(rows).toHaveLength(1)
    const log = await t.db.select().from(custodyLog).where(eq(custodyLog.keychainId, keychain.id))
    expect(log).toHaveLength(1)
  })
})
