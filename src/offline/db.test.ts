import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CAVE_TAG, ORG } from '../../tests/offline-rows.ts'
import {
  type HandoverRow,
  offlineDb,
  resetOfflineDbForTests,
  switchOfflineDbForTests,
  TrousseauDb,
  withDb,
} from './db.ts'

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
    expect(db.verno).toBe(3)
    expect(await db.outbox.get('item-1')).toMatchObject({ status: 'pending' })
    // Version 1's tags are gone (the first full sync brings them back, in buckets).
    expect(await db.tagBuckets.count()).toBe(0)
    expect(db.tables.map((table) => table.name)).not.toContain('tags')
    db.close()
    await db.delete()
  })
})

describe('the device database, version 3', () => {
  it('opens a version 2 database with everything kept, and the handover tables empty', async () => {
    const name = `upgrade-${Math.random()}`
    const old = new Dexie(name)
    old.version(2).stores({
      keychains: 'id',
      tagBuckets: 'id, *publicIds',
      transfers: 'id, organizationId, keychainId, recipientId, mine',
      profile: 'id',
      meta: 'key',
      outbox: 'id, seq, status, [status+seq]',
    })
    await old.open()
    await old.table('keychains').put({ id: 'kc-1', organizationId: ORG, summary: null, detail: null })
    await old.table('outbox').put({ id: 'item-1', seq: 1, status: 'pending' })
    await old.table('meta').put({ key: 'owner', value: 'user-1' })
    old.close()

    const db = new TrousseauDb(name)
    await db.open()
    expect(db.verno).toBe(3)
    expect(await db.keychains.get('kc-1')).toMatchObject({ organizationId: ORG })
    expect(await db.outbox.get('item-1')).toMatchObject({ status: 'pending' })
    expect(await db.meta.get('owner')).toEqual({ key: 'owner', value: 'user-1' })
    for (const table of [db.deviceKeys, db.deviceKeyPairs, db.pendingOffers, db.handovers])
      expect(await table.count()).toBe(0)
    // A handover is kept per user: the same offer on two accounts of one phone is two rows.
    const row = (userId: string) => ({ userId, offerId: 'offer-1' }) as HandoverRow
    await db.handovers.bulkPut([row('a'), row('b')])
    expect(await db.handovers.where('offerId').equals('offer-1').count()).toBe(2)
    db.close()
    await db.delete()
  })
})

describe('two phones in one test', () => {
  it('switch between databases of their own', async () => {
    switchOfflineDbForTests('phone-a')
    const a = offlineDb()
    switchOfflineDbForTests('phone-a')
    expect(offlineDb()).toBe(a)
    await a.meta.put({ key: 'k', value: 'a' })
    switchOfflineDbForTests('phone-b')
    expect(offlineDb().name).toBe('phone-b')
    expect(await offlineDb().meta.get('k')).toBeUndefined()
    await resetOfflineDbForTests()
    switchOfflineDbForTests('phone-a')
    expect(await offlineDb().meta.get('k')).toEqual({ key: 'k', value: 'a' })
    await resetOfflineDbForTests()
  })
})

describe('the app’s database', () => {
  beforeEach(async () => {
    await resetOfflineDbForTests()
  })

  it('is the one "trousseau" database, shared by every caller', () => {
    expect(offlineDb().name).toBe('trousseau')
    expect(offlineDb()).toBe(offlineDb())
  })

  it('starts empty again for the next test', async () => {
    const first = offlineDb()
    await first.meta.put({ key: 'k', value: 'v' })
    await resetOfflineDbForTests()
    expect(offlineDb()).not.toBe(first)
    expect(await offlineDb().meta.count()).toBe(0)
  })
})

describe('withDb', () => {
  const named = (name: string, message: string) => Object.assign(new Error(message), { name })

  beforeEach(async () => {
    await resetOfflineDbForTests()
  })

  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('answers what the work gives, from one run of it', async () => {
    const work = vi.fn(async (db: TrousseauDb) => db.name)
    expect(await withDb(work)).toBe('trousseau')
    expect(work).toHaveBeenCalledTimes(1)
  })

  it.each([
    ['Dexie’s closed database', named('DatabaseClosedError', 'Database has been closed')],
    [
      'Safari’s lost connection',
      named('UnknownError', 'Connection to Indexed Database server lost. Refresh the page to try again'),
    ],
    ['a lost connection under another name', named('Error', 'connection to indexed database server lost')],
  ])('opens the database anew and runs the work once more after %s', async (_, lost) => {
    await offlineDb().meta.put({ key: 'k', value: 'kept' })
    const connections: IDBDatabase[] = []
    const work = vi.fn(async (db: TrousseauDb) => {
      connections.push(db.backendDB())
      if (work.mock.calls.length === 1) throw lost
      return (await db.meta.get('k'))?.value
    })
    expect(await withDb(work)).toBe('kept')
    expect(work).toHaveBeenCalledTimes(2)
    // The lost connection is closed: the second run goes through a new one.
    expect(connections[1]).not.toBe(connections[0])
  })

  it('opens a database already closed under it without closing it first', async () => {
    const db = offlineDb()
    await db.open()
    const close = vi.spyOn(db, 'close')
    const work = vi.fn(async (each: TrousseauDb) => {
      if (work.mock.calls.length === 1) {
        each.close()
        close.mockClear()
        throw named('DatabaseClosedError', 'Database has been closed')
      }
      return each.isOpen()
    })
    expect(await withDb(work)).toBe(true)
    expect(close).not.toHaveBeenCalled()
  })

  it.each([
    ['an error of the work', named('ConstraintError', 'Key already exists in the object store.')],
    ['another unknown error of the browser', named('UnknownError', 'Internal error opening backing store')],
    [
      'a value thrown that only looks like a lost connection',
      { name: 'DatabaseClosedError', message: 'Database has been closed' },
    ],
    ['a value thrown that is not an error at all', 'Connection to Indexed Database server lost'],
  ])('lets %s through without running the work again', async (_, failure) => {
    const work = vi.fn(async () => {
      throw failure
    })
    await expect(withDb(work)).rejects.toBe(failure)
    expect(work).toHaveBeenCalledTimes(1)
  })

  it('lets the second failure through when the work fails again once reopened', async () => {
    const lost = named('DatabaseClosedError', 'Database has been closed')
    const work = vi.fn(async () => {
      throw lost
    })
    await expect(withDb(work)).rejects.toBe(lost)
    expect(work).toHaveBeenCalledTimes(2)
  })
})
