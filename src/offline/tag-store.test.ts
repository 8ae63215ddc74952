import 'fake-indexeddb/auto'
import { beforeEach, describe, expect, it } from 'vitest'
import { ORG, OTHER_ORG, tag } from '../../tests/offline-rows.ts'
import { offlineDb, resetOfflineDbForTests, withDb } from './db.ts'
import { asMirroredTag } from './mirror.ts'
import { allTags, putTags, removeTags, tagByCode, tagByPublicId } from './tag-store.ts'

const publicId = (n: number) =>
  `${'a'.repeat(17)}${String(n)
    .padStart(3, '0')
    .replace(/\d/g, (d) => 'bcdefghijk'[Number(d)]!)}`
const numbered = (n: number, organizationId = ORG, gen?: string) =>
  asMirroredTag(
    organizationId,
    tag(`AGC-${String(n).padStart(5, '0')}`, publicId(n), n % 2 ? 'kc-odd' : null),
    gen,
  )

beforeEach(async () => {
  await resetOfflineDbForTests()
})

describe('the tag store', () => {
  it('finds each tag by code and by public id, whatever bucket it falls in, as it was written', async () => {
    const tags = [62, 63, 64, 65, 99_999].map((n) => numbered(n, ORG, 'g1'))
    await withDb((db) => putTags(db, tags))
    const db = offlineDb()
    // 62 and 63 share a bucket; 64 starts the next one.
    expect(await db.tagBuckets.count()).toBe(3)
    for (const each of tags) {
      expect(await tagByCode(db, ORG, each.code)).toEqual(each)
      expect(await tagByPublicId(db, each.publicId)).toEqual(each)
    }
    expect(await tagByCode(db, OTHER_ORG, tags[0]!.code)).toBeUndefined()
    expect(await tagByCode(db, ORG, 'AGC-00061')).toBeUndefined()
    expect(await tagByPublicId(db, 'zzzzzzzzzzzzzzzzzzzz')).toBeUndefined()
  })

  it('replaces a tag in place, keeps its generation when written without one, keeps an unusual URL', async () => {
    const db = offlineDb()
    await withDb((each) => putTags(each, [numbered(1, ORG, 'g1'), numbered(2, ORG, 'g1')]))
    const moved = { ...numbered(1), key: null, url: 'https://elsewhere.test/t/1' }
    await withDb((each) => putTags(each, [moved]))
    expect(await tagByCode(db, ORG, 'AGC-00001')).toEqual({ ...moved, gen: 'g1' })
    expect((await allTags(db)).map((each) => each.code)).toEqual(['AGC-00001', 'AGC-00002'])
  })

  it('removes tags, and the bucket once empty', async () => {
    const db = offlineDb()
    await withDb((each) => putTags(each, [numbered(1), numbered(2), numbered(100)]))
    await withDb((each) => removeTags(each, (one) => one.code !== 'AGC-00002'))
    expect((await allTags(db)).map((each) => each.code)).toEqual(['AGC-00002'])
    expect(await db.tagBuckets.count()).toBe(1)
  })
})
