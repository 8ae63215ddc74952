import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import { CAVE_TAG, ORG } from '../../tests/offline-rows.ts'
import { TrousseauDb } from './db.ts'

describe('the device database', () => {
  it('opens a version 1 database of an earlier build with its outbox and mirror intact, its tags left to the first full sync', async () => {
    const name = `upgrade-${Math.random()}`
    const old = new Dexie(name)
    old.version(1).stores({
      keychains: 'id, organizationId',
      tags: 'id, organizationId, publicId, [organizationId+codeKey]',
      transfers: 'id, organizationId, keychainId, recipientId, mine',
      profile: 'id',
      meta: 'key',
      outbox: 'id, seq, status, [status+seq]',
    })
    await old.open()
    await old.table('tags').put({ ...CAVE_TAG, organizationId: ORG, codeKey: CAVE_TAG.code })
    await old.table('outbox').put({ id: 'item-1', seq: 1, status: 'pending' })
    old.close()

    const db = new TrousseauDb(name)
    await db.open()
    expect(db.verno).toBe(2)
    expect(await db.outbox.get('item-1')).toMatchObject({ status: 'pending' })
    // Version 1's tags are gone (the first full sync brings them back, in buckets).
    expect(await db.tagBuckets.count()).toBe(0)
    expect(db.tables.map((table) => table.name)).not.toContain('tags')
    db.close()
    await db.delete()
  })
})
