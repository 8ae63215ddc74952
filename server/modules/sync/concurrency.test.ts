import { eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import { makeKeychain } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { transferWorld } from '../../../tests/server/transfers.ts'
import { keychains } from '../../db/schema.ts'
import { appendEvent } from '../events/append.ts'
import { type FeedCaller, readFeed } from './feed.ts'

const t = setupTestApp()

/** A rename in its own transaction that stays open (event appended, not committed) until `release()`. */
function heldRename(organizationId: string, keychainId: string, name: string) {
  let release!: () => void
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  let appended = false
  const done = t.db.transaction(async (tx) => {
    await tx.update(keychains).set({ name }).where(eq(keychains.id, keychainId))
    await appendEvent(tx, {
      organizationId,
      kind: 'keychain.updated',
      actorId: null,
      serverTime: t.clock.now(),
      keychainIds: [keychainId],
    })
    appended = true
    await gate
  })
  return { release, done, appended: () => appended }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('the change feed under concurrent writers', () => {
  it('never skips a change whose transaction commits after a later one was read', async () => {
    const world = await transferWorld(t)
    const organizationId = world.organization.id
    const second = await makeKeychain(t, organizationId, 'Grenier')
    const caller: FeedCaller = {
      userId: world.admin.id,
      organizationId,
      role: 'ADMIN',
      permissions: permissionsFor('ADMIN'),
    }
    const read = (cursor: string | undefined) =>
      readFeed(t.db, { caller, cursor, now: t.clock.now(), publicUrl: t.config.publicUrl })
    let cursor: string | undefined
    for (let more = true; more; ) {
      const page = await read(cursor)
      cursor = page.cursor
      more = page.more
    }

    // A takes the next number and stays open; B starts after it and tries to commit first.
    const a = heldRename(organizationId, world.keychain.id, 'Cave (A)')
    while (!a.appended()) await pause(5)
    const b = heldRename(organizationId, second.id, 'Grenier (B)')
    b.release()
    await pause(200)
    // A reader now (on PostgreSQL from another connection) must not move past A's number.
    const seen = new Map<string, string>()
    const apply = async () => {
      const page = await read(cursor)
      for (const row of page.keychains) seen.set(row.id, row.name)
      cursor = page.cursor
    }
    if (t.database.driver === 'postgres') await apply()
    a.release()
    await Promise.all([a.done, b.done])
    await apply()
    await apply()

    expect(seen.get(world.keychain.id)).toBe('Cave (A)')
    expect(seen.get(second.id)).toBe('Grenier (B)')
  })

  it('numbers events 1, 2, 3… per organization without gaps, whatever the number of writers', async () => {
    const world = await transferWorld(t)
    const other = await transferWorld(t, { name: 'Autre' })
    const writers = Array.from({ length: 12 }, (_, index) =>
      t.db.transaction((tx) =>
        appendEvent(tx, {
          organizationId: index % 2 === 0 ? world.organization.id : other.organization.id,
          kind: 'keychain.updated',
          actorId: null,
          serverTime: t.clock.now(),
        }),
      ),
    )
    await Promise.all(writers)
    for (const organizationId of [world.organization.id, other.organization.id]) {
      const rows = await t.database.db.execute<{ seq: string }>(
        // Events of the fixtures come first (tags created): the numbers follow on from them.
        `select seq from organization_events where organization_id = '${organizationId}' order by seq` as never,
      )
      const numbers = (rows as unknown as { rows: { seq: string }[] }).rows.map((row) => Number(row.seq))
      expect(numbers).toEqual(numbers.map((_, index) => index + 1))
    }
  })
})
