// Two writes of one organization appending to its log at once (PostgreSQL: real concurrent transactions):
// the second waits for the first's counter row, and its entry must chain to the first's hash, which its
// statement could not see when it began.
import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { untilALockIsAwaited } from '../../../tests/server/locks.ts'
import { verifyChain } from '../activity/chain.ts'
import { appendEvent } from './append.ts'

const t = setupTestApp()

describe.runIf(process.env.TEST_DATABASE_URL)('two appends to one organization’s log at once', () => {
  it('chain the second entry to the first, committed while the second waited', async () => {
    const { organization } = await organizationWithAdmin(t)
    const event = (name: string) => ({
      organizationId: organization.id,
      kind: 'keychain.updated' as const,
      actorId: null,
      serverTime: t.clock.now(),
      payload: { name },
    })
    await appendEvent(t.db, event('before'))
    let release: () => void = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let appended: () => void = () => {}
    const firstAppended = new Promise<void>((resolve) => {
      appended = resolve
    })
    const first = t.db.transaction(async (tx) => {
      await appendEvent(tx, event('first'))
      appended()
      await released
    })
    await firstAppended
    const second = appendEvent(t.db, event('second'))
    await untilALockIsAwaited(t)
    release()
    await Promise.all([first, second])
    expect(await verifyChain(t.db, organization.id)).toEqual({ entries: 3, valid: true, brokenAt: null })
  })
})
