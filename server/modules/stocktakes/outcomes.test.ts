import { randomUUID } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { placeLabelUrl } from '../../../contract/places.ts'
import type { StocktakeDetail, StocktakeScanResult } from '../../../contract/stocktakes.ts'
import { makeTags, organizationWithAdmin, signedInMember } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'
import { eventsOf, makeBoard } from '../../../tests/server/places.ts'
import { hookLabel, keychainsAtHome } from '../../../tests/server/stocktakes.ts'
import { jobs, stocktakeItems } from '../../db/schema.ts'

// What each scan of a stocktake is, one outcome at a time: labels, tags of elsewhere, repeats, scans after the
// close; and what a close says and leaves behind.

const t = setupTestApp()
const DEVICE = '00000000-0000-4000-8000-00000000000d'

async function world() {
  const { organization } = await organizationWithAdmin(t, 'Agence')
  const manager = await signedInMember(t, organization.id, 'MANAGER')
  const board = await makeBoard(t, organization.id, { name: 'Tableau A', prefix: 'A-', count: 3 })
  const home = await keychainsAtHome(
    t,
    organization.id,
    board.hooks.map((hook) => hook.id),
  )
  const stranger = await organizationWithAdmin(t, 'Ailleurs')
  const theirBoard = await makeBoard(t, stranger.organization.id, {
    name: 'Leur tableau',
    prefix: 'Z-',
    count: 1,
  })
  const [theirs] = await keychainsAtHome(t, stranger.organization.id, [theirBoard.hooks[0]!.id])
  const [free] = await makeTags(t, organization.id, 1, 'FRE')
  const response = await t.post('/api/stocktakes', {
    cookie: manager.cookie,
    json: { placeId: board.board.id },
  })
  expect(response.status).toBe(201)
  const stocktake = (await response.json()) as StocktakeDetail
  let seq = 0
  const post = (value: string, hookId: string | null = null, key = randomUUID(), deviceSeq = ++seq) =>
    t.post(`/api/stocktakes/${stocktake.id}/scans`, {
      cookie: manager.cookie,
      json: { value, hookId, deviceId: DEVICE, deviceSeq },
      headers: { 'idempotency-key': key },
    })
  const scan = async (value: string, hookId: string | null = null) => {
    const answer = await post(value, hookId)
    expect(answer.status).toBe(201)
    return (await answer.json()) as StocktakeScanResult
  }
  const read = async () =>
    (await (
      await t.get(`/api/stocktakes/${stocktake.id}`, { cookie: manager.cookie })
    ).json()) as StocktakeDetail
  return { organization, manager, board, home, theirBoard, theirs, free, stocktake, post, scan, read }
}

describe('what a scan is', () => {
  it('a board’s label says where, like a hook’s, but names no hook; unknown and foreign labels are UNKNOWN', async () => {
    const w = await world()
    const board = await w.scan(
      placeLabelUrl(t.config.publicUrl, w.board.board.publicId!),
      w.board.hooks[1]!.id,
    )
    expect(board).toMatchObject({ outcome: 'HOOK', hook: null, keychain: null })
    expect((await w.scan(hookLabel(t, w.board.hooks[0]!))).hook).toMatchObject({ code: 'A-01' })
    expect((await w.scan('h:zzzzzzzzzzzzzzzz')).outcome).toBe('UNKNOWN')
    expect((await w.scan(hookLabel(t, w.theirBoard.hooks[0]!))).outcome).toBe('UNKNOWN')
    expect((await w.scan(placeLabelUrl(t.config.publicUrl, 'zzzzzzzzzzzzzzzz'))).outcome).toBe('UNKNOWN')
  })

  it('another organization’s tag, a tag on no keychain and garbage are UNKNOWN, each counted once', async () => {
    const w = await world()
    for (const value of [w.theirs!.tag.code, w.free!.code, 'not a tag at all']) {
      expect(await w.scan(value)).toMatchObject({ outcome: 'UNKNOWN', keychain: null })
    }
    expect((await w.scan('not a tag at all')).outcome).toBe('REPEATED')
    expect((await w.read()).counts).toMatchObject({ unexpected: 3, found: 0 })
  })

  it('a keychain seen twice is REPEATED; seen again elsewhere it moves there, seen with no hook it stays', async () => {
    const w = await world()
    const [first, second] = w.board.hooks
    expect((await w.scan(w.home[0]!.tag.code, first!.id)).outcome).toBe('FOUND')
    expect((await w.scan(w.home[0]!.tag.code, first!.id)).outcome).toBe('REPEATED')
    expect((await w.scan(w.home[0]!.tag.code, second!.id)).outcome).toBe('REPEATED')
    const [moved] = await t.db
      .select()
      .from(stocktakeItems)
      .where(
        and(eq(stocktakeItems.stocktakeId, w.stocktake.id), eq(stocktakeItems.keychainId, w.home[0]!.id)),
      )
    expect([moved!.state, moved!.foundHookId]).toEqual(['MISPLACED', second!.id])
    expect((await w.scan(w.home[0]!.tag.code, null)).outcome).toBe('REPEATED')
    const [kept] = await t.db
      .select()
      .from(stocktakeItems)
      .where(
        and(eq(stocktakeItems.stocktakeId, w.stocktake.id), eq(stocktakeItems.keychainId, w.home[0]!.id)),
      )
    expect(kept!.foundHookId).toBe(second!.id)
    expect((await w.read()).counts).toMatchObject({ found: 0, misplaced: 1, missing: 2 })
  })

  it('a replay answers the first answer with the replay header; the same key with another hook is 422', async () => {
    const w = await world()
    const key = randomUUID()
    const first = await w.post(w.home[1]!.tag.code, w.board.hooks[1]!.id, key, 1)
    expect(first.status).toBe(201)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const again = await w.post(w.home[1]!.tag.code, w.board.hooks[1]!.id, key, 1)
    expect(again.status).toBe(201)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(await again.json()).toEqual(await first.json())
    const other = await w.post(w.home[1]!.tag.code, w.board.hooks[0]!.id, key, 1)
    expect(other.status).toBe(422)
  })
})

describe('scans after the close', () => {
  it('are kept as late: what the close found is REPEATED, what it missed says where it was, counts unchanged', async () => {
    const w = await world()
    await w.scan(w.home[0]!.tag.code, w.board.hooks[0]!.id)
    const closed = await t.post(`/api/stocktakes/${w.stocktake.id}/close`, { cookie: w.manager.cookie })
    expect(closed.status).toBe(200)
    const before = (await w.read()).counts
    expect(await w.scan(w.home[0]!.tag.code, w.board.hooks[0]!.id)).toMatchObject({
      outcome: 'REPEATED',
      late: true,
    })
    expect(await w.scan(w.home[1]!.tag.code, w.board.hooks[1]!.id)).toMatchObject({
      outcome: 'FOUND',
      late: true,
    })
    expect(await w.scan(w.home[2]!.tag.code, w.board.hooks[0]!.id)).toMatchObject({
      outcome: 'MISPLACED',
      late: true,
    })
    expect(await w.scan(w.home[2]!.tag.code, null)).toMatchObject({ outcome: 'FOUND', late: true })
    expect((await w.read()).counts).toEqual(before)
  })
})

describe('closing', () => {
  it('names who still has scans on the way and how many; closing twice is refused', async () => {
    const w = await world()
    await t.put(`/api/stocktakes/${w.stocktake.id}/devices/${DEVICE}`, {
      cookie: w.manager.cookie,
      json: { made: 3 },
    })
    await w.scan(w.home[0]!.tag.code)
    const refused = await t.post(`/api/stocktakes/${w.stocktake.id}/close`, { cookie: w.manager.cookie })
    expect(refused.status).toBe(409)
    const body = (await refused.json()) as { error: { message: string; unsent: unknown[] } }
    expect(body.error.message).toMatch(/^Scans are still on their way from: .+ \(2\)\./)
    expect(body.error.unsent).toEqual([
      expect.objectContaining({
        deviceId: DEVICE,
        made: 3,
        received: 1,
        person: expect.objectContaining({ id: w.manager.id }),
      }),
    ])
    await w.scan(w.home[1]!.tag.code, w.board.hooks[2]!.id)
    await w.scan(w.home[2]!.tag.code)
    expect(
      (await t.post(`/api/stocktakes/${w.stocktake.id}/close`, { cookie: w.manager.cookie })).status,
    ).toBe(200)
    const twice = await t.post(`/api/stocktakes/${w.stocktake.id}/close`, { cookie: w.manager.cookie })
    expect(twice.status).toBe(409)
    expect(((await twice.json()) as { error: { message: string } }).error.message).toBe(
      'This stocktake is closed already.',
    )
    // Nothing missing: no mail to the admins; the event names the misplaced keychain.
    const mails = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'stocktake.missing_notice'), eq(jobs.organizationId, w.organization.id)))
    expect(mails).toEqual([])
    const [closedEvent] = await eventsOf(t, w.organization.id, ['stocktake.closed'])
    expect(closedEvent!.keychainIds).toEqual([w.home[1]!.id])
  })

  it('mails the admins when something is missing, and the event names the missing and the misplaced', async () => {
    const w = await world()
    await w.scan(w.home[0]!.tag.code, w.board.hooks[1]!.id)
    await w.scan(w.home[1]!.tag.code)
    expect(
      (await t.post(`/api/stocktakes/${w.stocktake.id}/close`, { cookie: w.manager.cookie })).status,
    ).toBe(200)
    const mails = await t.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'stocktake.missing_notice'), eq(jobs.organizationId, w.organization.id)))
    expect(mails).toHaveLength(1)
    const [closedEvent] = await eventsOf(t, w.organization.id, ['stocktake.closed'])
    expect([...closedEvent!.keychainIds].sort()).toEqual([w.home[2]!.id, w.home[0]!.id].sort())
  })

  it('refuses a second open stocktake of the same scope, and a place of another organization', async () => {
    const w = await world()
    const again = await t.post('/api/stocktakes', {
      cookie: w.manager.cookie,
      json: { placeId: w.board.board.id },
    })
    expect(again.status).toBe(409)
    expect(((await again.json()) as { error: { message: string } }).error.message).toBe(
      'A stocktake of this scope is already open: close it first.',
    )
    const foreign = await t.post('/api/stocktakes', {
      cookie: w.manager.cookie,
      json: { placeId: w.theirBoard.board.id },
    })
    expect(foreign.status).toBe(404)
    expect(((await foreign.json()) as { error: { message: string } }).error.message).toBe('No such place.')
  })
})
