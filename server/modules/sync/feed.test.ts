import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import type { SyncPage } from '../../../contract/sync.ts'
import { DAY } from '../../../tests/server/clock.ts'
import { addMember, makeKeychain, makeTags, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { addTagKey, makeTransfer, transferWorld } from '../../../tests/server/transfers.ts'
import { memberships } from '../../db/schema.ts'
import { type FeedCaller, readFeed } from './feed.ts'

const t = setupTestApp()

async function page(cookie: string, cursor?: string, limit?: number): Promise<SyncPage> {
  const query = new URLSearchParams()
  if (cursor) query.set('cursor', cursor)
  if (limit) query.set('limit', String(limit))
  const response = await t.get(`/api/sync/changes?${query}`, { cookie })
  expect(response.status).toBe(200)
  return (await response.json()) as SyncPage
}

type Mirror = {
  keychains: Map<string, SyncPage['keychains'][number]>
  tags: Map<string, SyncPage['tags'][number]>
  transfers: Map<string, SyncPage['transfers'][number]>
  cursor: string | undefined
  pages: SyncPage[]
}

const emptyMirror = (): Mirror => ({
  keychains: new Map(),
  tags: new Map(),
  transfers: new Map(),
  cursor: undefined,
  pages: [],
})

/** Reads the feed until it says there is no more, applying each page as a device would. */
async function sync(cookie: string, mirror: Mirror = emptyMirror(), limit?: number): Promise<Mirror> {
  for (let guard = 0; guard < 100; guard += 1) {
    const answer = await page(cookie, mirror.cursor, limit)
    mirror.pages.push(answer)
    if (
      answer.reset &&
      answer.phase === 'snapshot' &&
      answer.progress?.done === answer.keychains.length + answer.tags.length + answer.transfers.length
    ) {
      mirror.keychains.clear()
      mirror.tags.clear()
      mirror.transfers.clear()
    }
    for (const row of answer.keychains) mirror.keychains.set(row.id, row)
    for (const row of answer.tags) mirror.tags.set(row.id, row)
    for (const row of answer.transfers) mirror.transfers.set(row.id, row)
    for (const id of answer.deleted.keychains) mirror.keychains.delete(id)
    mirror.cursor = answer.cursor
    if (!answer.more) return mirror
  }
  throw new Error('the feed never ended')
}

describe('GET /sync/changes', () => {
  it('streams the whole organization in pages with progress, then only what changed', async () => {
    const world = await transferWorld(t)
    const more = await makeTags(t, world.organization.id, 4, 'SNP')
    const second = await makeKeychain(t, world.organization.id, 'Bureau')
    await addTagKey(t, second.id, more[0]!.id, 'Bureau')
    const transfer = await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
    })

    const mirror = await sync(world.admin.cookie, emptyMirror(), 2)
    const [first] = mirror.pages
    expect(first!.reset).toBe(true)
    expect(first!.phase).toBe('snapshot')
    expect(first!.progress).toEqual({ done: 2, total: 5 + 2 + 1 })
    expect(mirror.pages.filter((each) => each.phase === 'snapshot').length).toBeGreaterThanOrEqual(4)
    expect(mirror.pages.at(-1)).toMatchObject({ phase: 'changes', more: false })
    expect([...mirror.tags.values()].map((tag) => tag.code).sort()).toEqual(
      [world.tag.code, ...more.map((tag) => tag.code)].sort(),
    )
    expect(mirror.keychains.get(second.id)?.keys.map((key) => key.tag?.code)).toEqual([more[0]!.code])
    expect(mirror.transfers.get(transfer.id)?.status).toBe('SCHEDULED')

    // Nothing changed: one page, empty, and done.
    const idle = await page(world.admin.cookie, mirror.cursor)
    expect(idle).toMatchObject({
      reset: false,
      phase: 'changes',
      more: false,
      keychains: [],
      tags: [],
      transfers: [],
    })

    // A rename reaches the keychain, the tags on it (their keychain name) and its transfers.
    const renamed = await t.patch(`/api/keychains/${world.keychain.id}`, {
      cookie: world.admin.cookie,
      json: { name: 'Cave B' },
    })
    expect(renamed.status).toBe(200)
    const changes = await page(world.admin.cookie, idle.cursor)
    expect(changes.keychains.map((row) => [row.id, row.name])).toEqual([[world.keychain.id, 'Cave B']])
    expect(changes.tags.map((row) => [row.id, row.key?.keychainName])).toEqual([[world.tag.id, 'Cave B']])
    expect(changes.transfers.map((row) => [row.id, row.keychain.name])).toEqual([[transfer.id, 'Cave B']])
    expect(changes.more).toBe(false)
    expect((await page(world.admin.cookie, changes.cursor)).keychains).toEqual([])
  })

  it('tells of a deleted keychain and frees its tags; a cancelled transfer comes back cancelled', async () => {
    const world = await transferWorld(t)
    const transfer = await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
    })
    const mirror = await sync(world.admin.cookie)

    const cancelled = await t.delete(`/api/transfers/${transfer.id}`, { cookie: world.admin.cookie })
    expect(cancelled.status).toBe(200)
    const afterCancel = await page(world.admin.cookie, mirror.cursor)
    expect(afterCancel.transfers.map((row) => [row.id, row.status])).toEqual([[transfer.id, 'CANCELLED']])

    expect(
      (await t.delete(`/api/keychains/${world.keychain.id}`, { cookie: world.admin.cookie })).status,
    ).toBe(204)
    const afterDelete = await page(world.admin.cookie, afterCancel.cursor)
    expect(afterDelete.deleted.keychains).toEqual([world.keychain.id])
    expect(afterDelete.keychains).toEqual([])
    expect(afterDelete.tags.map((row) => [row.id, row.key])).toEqual([[world.tag.id, null]])
  })

  it('sends each role only what it may read, in the snapshot and in the changes', async () => {
    const world = await transferWorld(t)
    const other = await signedInMember(t, world.organization.id, 'CONTACT')
    const mine = await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: world.keychain.id,
      recipientId: world.contact.id,
    })
    const second = await makeKeychain(t, world.organization.id, 'Garage')
    const theirs = await makeTransfer(t, {
      organizationId: world.organization.id,
      keychainId: second.id,
      recipientId: other.id,
    })

    const contact = await sync(world.contact.cookie)
    expect(contact.keychains.size).toBe(0)
    expect(contact.tags.size).toBe(0)
    expect([...contact.transfers.keys()]).toEqual([mine.id])
    // The tags of the keychain lent to them come with the transfer: how their device recognises it offline.
    expect(contact.transfers.get(mine.id)?.keychain.tags.map((tag) => tag.id)).toEqual([world.tag.id])
    expect(contact.pages[0]!.progress?.total).toBe(1)

    const member = await sync(world.member.cookie)
    expect([...member.transfers.keys()].sort()).toEqual([mine.id, theirs.id].sort())
    expect(member.keychains.size).toBe(2)
    expect(member.tags.size).toBe(1)

    // Changes: a rename of the other keychain and a cancellation of someone else's transfer stay out.
    await t.patch(`/api/keychains/${second.id}`, { cookie: world.admin.cookie, json: { name: 'Garage 2' } })
    await t.delete(`/api/transfers/${theirs.id}`, { cookie: world.admin.cookie })
    const quiet = await page(world.contact.cookie, contact.cursor)
    expect(quiet).toMatchObject({
      keychains: [],
      tags: [],
      transfers: [],
      deleted: { keychains: [] },
      more: false,
    })
    const busy = await page(world.member.cookie, member.cursor)
    expect(busy.keychains.map((row) => row.name)).toEqual(['Garage 2'])
    expect(busy.transfers.map((row) => [row.id, row.status])).toEqual([[theirs.id, 'CANCELLED']])

    // A key added to the keychain lent to the contact shows on their transfer, not as a tag of its own.
    const [added] = await makeTags(t, world.organization.id, 1, 'ADD')
    const key = await t.post(`/api/keychains/${world.keychain.id}/keys`, {
      cookie: world.admin.cookie,
      json: { type: 'TAG', name: 'Garage', tagId: added!.id },
    })
    expect(key.status).toBe(201)
    const withKey = await page(world.contact.cookie, quiet.cursor)
    expect(withKey.tags).toEqual([])
    expect(withKey.transfers.map((row) => row.keychain.tags.map((tag) => tag.code).sort())).toEqual([
      [added!.code, world.tag.code].sort(),
    ])
  })

  it('starts over when the cursor is too old, or the role or the organization changed', async () => {
    const world = await transferWorld(t)
    const first = await sync(world.member.cookie)

    // (A new sign-in each time: sessions end after a week idle.)
    t.clock.advance(29 * DAY)
    const stillFine = await page((await t.signIn(world.member.email)).cookie, first.cursor)
    expect(stillFine.reset).toBe(false)
    t.clock.advance(31 * DAY)
    const { cookie } = await t.signIn(world.member.email)
    const expired = await page(cookie, stillFine.cursor)
    expect(expired).toMatchObject({ reset: true, phase: 'snapshot' })

    const again = await sync(cookie)
    await t.db
      .update(memberships)
      .set({ role: 'CONTACT' })
      .where(
        and(eq(memberships.userId, world.member.id), eq(memberships.organizationId, world.organization.id)),
      )
    const demoted = await page(cookie, again.cursor)
    expect(demoted).toMatchObject({ reset: true, phase: 'snapshot', tags: [], keychains: [] })

    const admin = await t.signIn(world.admin.email)
    const before = await sync(admin.cookie)
    const elsewhere = await transferWorld(t, { name: 'Ailleurs' })
    await addMember(t, { userId: world.admin.id, organizationId: elsewhere.organization.id, role: 'ADMIN' })
    const switched = await page(admin.cookie, before.cursor)
    expect(switched).toMatchObject({ reset: true, organizationId: elsewhere.organization.id })
    expect(switched.tags.map((tag) => tag.id)).toEqual([elsewhere.tag.id])
  })

  it('answers 400 to a malformed cursor or limit, and needs a selected organization', async () => {
    const world = await transferWorld(t)
    for (const query of [
      'cursor=not-a-cursor',
      `cursor=${Buffer.from('{"v":1}').toString('base64url')}`,
      'limit=0',
      'limit=5000',
    ]) {
      const response = await t.get(`/api/sync/changes?${query}`, { cookie: world.admin.cookie })
      expect(response.status, query).toBe(400)
      expect((await response.json()).error.code).toBe('validation_failed')
    }
    // A cursor of an older format starts over rather than failing.
    const old = Buffer.from(JSON.stringify({ v: 0, s: 3 })).toString('base64url')
    expect((await page(world.admin.cookie, old)).reset).toBe(true)
  })
})

describe('the cost of an up-to-date device', () => {
  it('answers an empty page with two queries: the events after its cursor, the members’ device keys', async () => {
    const world = await transferWorld(t)
    const caller: FeedCaller = {
      userId: world.admin.id,
      organizationId: world.organization.id,
      role: 'ADMIN',
      permissions: permissionsFor('ADMIN'),
    }
    let cursor: string | undefined
    for (let more = true; more; ) {
      const answer = await readFeed(t.db, {
        caller,
        cursor,
        now: t.clock.now(),
        publicUrl: t.config.publicUrl,
      })
      cursor = answer.cursor
      more = answer.more
    }
    let queries = 0
    const counted = new Proxy(t.db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver)
        if (
          typeof value !== 'function' ||
          !['select', 'execute', '$count', 'transaction'].includes(String(property))
        )
          return value
        return (...args: unknown[]) => {
          queries += 1
          return value.apply(target, args)
        }
      },
    })
    const answer = await readFeed(counted, {
      caller,
      cursor,
      now: t.clock.now(),
      publicUrl: t.config.publicUrl,
    })
    expect(answer).toMatchObject({ more: false, keychains: [], tags: [], transfers: [], deviceKeys: [] })
    expect(queries).toBe(2)
  })
})
