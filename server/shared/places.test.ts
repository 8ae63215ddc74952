import { describe, expect, it } from 'vitest'
import { organizationWithAdmin } from '../../tests/server/fixtures.ts'
import { setupTestApp } from '../../tests/server/harness.ts'
import { makeBoard, makePlace } from '../../tests/server/places.ts'
import { hookRefs, placeSubtreeIds } from './places.ts'

const t = setupTestApp()

describe('placeSubtreeIds', () => {
  it('gives a place and everything under it, at any depth, and nothing of its siblings or parents', async () => {
    const { organization } = await organizationWithAdmin(t)
    const site = await makePlace(t, organization.id, { kind: 'SITE' })
    const room = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    const cupboard = await makePlace(t, organization.id, { kind: 'ROOM', parentId: room.id, depth: 2 })
    const { board } = await makeBoard(t, organization.id, { parentId: cupboard.id, depth: 3 })
    const sibling = await makePlace(t, organization.id, { kind: 'ROOM', parentId: site.id, depth: 1 })
    expect((await placeSubtreeIds(t.db, organization.id, room.id)).sort()).toEqual(
      [room.id, cupboard.id, board.id].sort(),
    )
    expect(await placeSubtreeIds(t.db, organization.id, board.id)).toEqual([board.id])
    expect(await placeSubtreeIds(t.db, organization.id, site.id)).toHaveLength(5)
    expect(await placeSubtreeIds(t.db, organization.id, sibling.id)).toEqual([sibling.id])
  })

  it('is empty for another organization’s place', async () => {
    const { organization } = await organizationWithAdmin(t)
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const site = await makePlace(t, foreign.organization.id, { kind: 'SITE' })
    expect(await placeSubtreeIds(t.db, organization.id, site.id)).toEqual([])
  })
})

describe('hookRefs', () => {
  it('names each hook by its code and board, once per id, and leaves out another organization’s', async () => {
    const { organization } = await organizationWithAdmin(t)
    const { board, hooks } = await makeBoard(t, organization.id, { name: 'Tableau A', count: 2 })
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const other = await makeBoard(t, foreign.organization.id, { count: 1 })
    const refs = await hookRefs(t.db, organization.id, [
      hooks[0]!.id,
      hooks[0]!.id,
      hooks[1]!.id,
      other.hooks[0]!.id,
    ])
    expect([...refs.values()].sort((a, b) => a.code.localeCompare(b.code))).toEqual([
      { id: hooks[0]!.id, code: 'A-01', placeId: board.id, placeName: 'Tableau A' },
      { id: hooks[1]!.id, code: 'A-02', placeId: board.id, placeName: 'Tableau A' },
    ])
    expect(await hookRefs(t.db, organization.id, [])).toEqual(new Map())
  })
})
