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

describe('how the tag store keeps tags', () => {
  const base = 'https://trousseau.test/tags/'

  it('keeps a bucket’s tags in code order, each URL only when it is not the bucket’s base and public id', async () => {
    const db = offlineDb()
    const unusual = { ...numbered(3), url: 'https://elsewhere.test/t/3' }
    await withDb((each) => putTags(each, [numbered(5, ORG, 'g1'), unusual, numbered(1)]))
    const [bucket] = await db.tagBuckets.toArray()
    expect(bucket).toMatchObject({
      id: `${ORG}|AGC|0`,
      organizationId: ORG,
      urlBase: base,
      publicIds: [publicId(1), publicId(3), publicId(5)],
    })
    expect(bucket!.tags).toEqual([
      [
        'tag-AGC-00001',
        publicId(1),
        'AGC-00001',
        'Tag AGC-00001',
        '#000000',
        '#ffffff',
        '2026-11-01T00:00:00.000Z',
        null,
        null,
        'key-AGC-00001',
        'Porte',
        'kc-odd',
        'Keychain kc-odd',
      ],
      [
        'tag-AGC-00003',
        publicId(3),
        'AGC-00003',
        'Tag AGC-00003',
        '#000000',
        '#ffffff',
        '2026-11-01T00:00:00.000Z',
        null,
        'https://elsewhere.test/t/3',
        'key-AGC-00003',
        'Porte',
        'kc-odd',
        'Keychain kc-odd',
      ],
      [
        'tag-AGC-00005',
        publicId(5),
        'AGC-00005',
        'Tag AGC-00005',
        '#000000',
        '#ffffff',
        '2026-11-01T00:00:00.000Z',
        'g1',
        null,
        'key-AGC-00005',
        'Porte',
        'kc-odd',
        'Keychain kc-odd',
      ],
    ])
    expect(await tagByPublicId(db, publicId(3))).toEqual(unusual)
    expect(await tagByPublicId(db, publicId(5))).toEqual(numbered(5, ORG, 'g1'))
  })

  it('keeps the base of a bucket when a tag with another URL joins it', async () => {
    const db = offlineDb()
    await withDb((each) => putTags(each, [numbered(2)]))
    const unusual = { ...numbered(4), url: 'https://elsewhere.test/t/4' }
    await withDb((each) => putTags(each, [unusual]))
    expect((await db.tagBuckets.toArray())[0]!.urlBase).toBe(base)
    expect(await tagByCode(db, ORG, 'AGC-00002')).toEqual(numbered(2))
    expect(await tagByCode(db, ORG, 'AGC-00004')).toEqual(unusual)
  })

  it('gives a bucket of a tag whose URL does not end in its public id an empty base', async () => {
    const db = offlineDb()
    const odd = { ...numbered(6), url: 'https://elsewhere.test/t/6' }
    await withDb((each) => putTags(each, [odd]))
    expect((await db.tagBuckets.toArray())[0]).toMatchObject({ urlBase: '' })
    expect(await tagByCode(db, ORG, 'AGC-00006')).toEqual(odd)
  })

  it('keeps a tag of an unusual code in a bucket of its own, found by its code and public id', async () => {
    const db = offlineDb()
    const legacy = asMirroredTag(ORG, tag('LEGACY-7', 'llllllllllllllllllll', null), 'g2')
    await withDb((each) => putTags(each, [legacy, numbered(7)]))
    expect((await db.tagBuckets.toArray()).map((bucket) => bucket.id).sort()).toEqual([
      `${ORG}|AGC|0`,
      `${ORG}|LEGACY-7`,
    ])
    expect(await tagByCode(db, ORG, 'LEGACY-7')).toEqual(legacy)
    expect(await tagByPublicId(db, 'llllllllllllllllllll')).toEqual(legacy)
    expect(await tagByCode(db, OTHER_ORG, 'LEGACY-7')).toBeUndefined()
  })

  it('keeps organizations apart, and a new generation replaces the old one', async () => {
    const db = offlineDb()
    await withDb((each) => putTags(each, [numbered(1, ORG, 'g1'), numbered(1, OTHER_ORG, 'g1')]))
    expect(await db.tagBuckets.count()).toBe(2)
    await withDb((each) => putTags(each, [numbered(1, ORG, 'g2')]))
    expect((await tagByCode(db, ORG, 'AGC-00001'))?.gen).toBe('g2')
    expect((await tagByCode(db, OTHER_ORG, 'AGC-00001'))?.gen).toBe('g1')
    await withDb((each) => putTags(each, [numbered(3)]))
    expect(await tagByCode(db, ORG, 'AGC-00003')).not.toHaveProperty('gen')
  })

  it('writes nothing for no tags, and removes nothing when nothing is gone', async () => {
    const db = offlineDb()
    await withDb((each) => putTags(each, []))
    expect(await db.tagBuckets.count()).toBe(0)
    await withDb((each) => putTags(each, [numbered(1), numbered(2)]))
    await withDb((each) => removeTags(each, () => false))
    expect((await allTags(db)).map((each) => each.code)).toEqual(['AGC-00001', 'AGC-00002'])
  })
})
