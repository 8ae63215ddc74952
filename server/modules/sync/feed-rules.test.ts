import { describe, expect, it } from 'vitest'
import { permissionsFor } from '../../../contract/permissions.ts'
import { SYNC_RETENTION_MS, type SyncPage } from '../../../contract/sync.ts'
import { makeKeychain, makeTags, NEW_ORGANIZATION, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp, uniqueEmail } from '../../../tests/server/harness.ts'
import { makeTransfer, transferWorld } from '../../../tests/server/transfers.ts'
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

/** Every page a device reads from no cursor until the feed says there is no more. */
async function allPages(cookie: string, limit?: number): Promise<SyncPage[]> {
  const pages: SyncPage[] = []
  let cursor: string | undefined
  for (let guard = 0; guard < 20; guard += 1) {
    const answer = await page(cookie, cursor, limit)
    pages.push(answer)
    cursor = answer.cursor
    if (!answer.more) return pages
  }
  throw new Error('the feed never ended')
}

describe('the snapshot in pages', () => {
  it('sends every row once, a full page going on after its last row, and resets the mirror only on the first page', async () => {
    const world = await transferWorld(t)
    const tags = [world.tag, ...(await makeTags(t, world.organization.id, 5, 'PAG'))]
    const keychains = [world.keychain]
    for (const name of ['Garage', 'Bureau', 'Atelier'])
      keychains.push(await makeKeychain(t, world.organization.id, name))
    const transfers = []
    for (const keychain of keychains)
      transfers.push(
        await makeTransfer(t, {
          organizationId: world.organization.id,
          keychainId: keychain.id,
          recipientId: world.contact.id,
        }),
      )

    const pages = await allPages(world.admin.cookie, 3)
    // Six tags: two full pages, then an empty one that ends them; four keychains and four transfers: 3 + 1.
    expect(
      pages.map((each) => [each.phase, each.tags.length, each.keychains.length, each.transfers.length]),
    ).toEqual([
      ['snapshot', 3, 0, 0],
      ['snapshot', 3, 0, 0],
      ['snapshot', 0, 0, 0],
      ['snapshot', 0, 3, 0],
      ['snapshot', 0, 1, 0],
      ['snapshot', 0, 0, 3],
      ['snapshot', 0, 0, 1],
      ['changes', 0, 0, 0],
    ])
    const sent = (rows: (each: SyncPage) => { id: string }[]) =>
      pages
        .flatMap(rows)
        .map((row) => row.id)
        .sort()
    expect(sent((each) => each.tags)).toEqual(tags.map((tag) => tag.id).sort())
    expect(sent((each) => each.keychains)).toEqual(keychains.map((keychain) => keychain.id).sort())
    expect(sent((each) => each.transfers)).toEqual(transfers.map((transfer) => transfer.id).sort())

    // A device empties its mirror on a reset: only the first page may ask for it, or it would lose the rows before.
    expect(pages.map((each) => each.reset)).toEqual([true, false, false, false, false, false, false, false])
    // Nothing is deleted while reading the snapshot, nor by an empty page of changes.
    for (const each of pages) expect(each.deleted).toEqual({ keychains: [] })
    expect(pages.map((each) => each.progress)).toEqual([
      ...[3, 6, 6, 9, 10, 13, 14].map((done) => ({ done, total: 14 })),
      null,
    ])
    expect(pages.at(-1)!.more).toBe(false)
  })

  it('does not send again after the snapshot what changed before it began', async () => {
    const world = await transferWorld(t)
    const renamed = await t.patch(`/api/keychains/${world.keychain.id}`, {
      cookie: world.admin.cookie,
      json: { name: 'Cave B' },
    })
    expect(renamed.status).toBe(200)

    const pages = await allPages(world.admin.cookie)
    const snapshot = pages.filter((each) => each.phase === 'snapshot')
    expect(snapshot.flatMap((each) => each.keychains).map((row) => row.name)).toEqual(['Cave B'])
    // The snapshot already holds the rename: the changes that follow it are empty.
    expect(pages.filter((each) => each.phase === 'changes')).toEqual([
      expect.objectContaining({ keychains: [], tags: [], transfers: [], more: false }),
    ])

    // What changes after the snapshot began still comes.
    await t.patch(`/api/keychains/${world.keychain.id}`, {
      cookie: world.admin.cookie,
      json: { name: 'Cave C' },
    })
    const next = await page(world.admin.cookie, pages.at(-1)!.cursor)
    expect(next.keychains.map((row) => row.name)).toEqual(['Cave C'])
  })
})

describe('a new organization', () => {
  it('syncs before anything was logged in it, then receives its first change', async () => {
    const { cookie } = await t.signIn(uniqueEmail())
    const created = await t.post('/api/organizations', { cookie, json: NEW_ORGANIZATION })
    expect(created.status).toBe(201)
    const organization = (await created.json()) as { id: string }

    const pages = await allPages(cookie)
    expect(pages[0]).toMatchObject({ organizationId: organization.id, reset: true, phase: 'snapshot' })
    expect(pages.flatMap((each) => [...each.keychains, ...each.tags, ...each.transfers])).toEqual([])
    expect(pages.at(-1)).toMatchObject({ phase: 'changes', more: false })

    const keychain = await t.post('/api/keychains', { cookie, json: { name: 'Entrée' } })
    expect(keychain.status).toBe(201)
    const first = await page(cookie, pages.at(-1)!.cursor)
    expect(first).toMatchObject({ reset: false, phase: 'changes' })
    expect(first.keychains.map((row) => row.name)).toEqual(['Entrée'])
  })
})

describe('a cursor that no longer holds', () => {
  it('starts over for a user other than the one it was made for, even with the same role', async () => {
    const world = await transferWorld(t)
    const colleague = await signedInMember(t, world.organization.id, 'MEMBER')
    const mine = await allPages(world.member.cookie)
    expect(mine.at(-1)).toMatchObject({ phase: 'changes', reset: false })

    const borrowed = await page(colleague.cookie, mine.at(-1)!.cursor)
    expect(borrowed).toMatchObject({ reset: true, phase: 'snapshot' })
    // The owner's own cursor still holds.
    expect(await page(world.member.cookie, mine.at(-1)!.cursor)).toMatchObject({
      reset: false,
      phase: 'changes',
    })
  })

  it('holds for exactly the retention, and starts over one millisecond later', async () => {
    const world = await transferWorld(t)
    const caller: FeedCaller = {
      userId: world.member.id,
      organizationId: world.organization.id,
      role: 'MEMBER',
      permissions: permissionsFor('MEMBER'),
    }
    const issuedAt = t.clock.now()
    const read = (cursor: string | undefined, now: Date) =>
      readFeed(t.db, { caller, cursor, now, publicUrl: t.config.publicUrl })
    let answer = await read(undefined, issuedAt)
    while (answer.more) answer = await read(answer.cursor, issuedAt)

    const atRetention = await read(answer.cursor, new Date(issuedAt.getTime() + SYNC_RETENTION_MS))
    expect(atRetention).toMatchObject({ reset: false, phase: 'changes' })
    const past = await read(answer.cursor, new Date(issuedAt.getTime() + SYNC_RETENTION_MS + 1))
    expect(past).toMatchObject({ reset: true, phase: 'snapshot' })
  })
})
