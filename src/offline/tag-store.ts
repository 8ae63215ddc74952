import { TAG_CODE_PATTERN } from '../../contract/tags.ts'
import type { MirroredTag, TagBucket, TrousseauDb } from './db.ts'

/**
 * The mirror's tags, kept in buckets of up to 64 consecutive codes of one organization (`AGC-00000` to
 * `AGC-00063`…) rather than one record each: an organization of 100,000 tags is some 1,600 records. IndexedDB
 * pays about 200 bytes and an index entry per record, which made the tags alone over 100 MB; in buckets they
 * take about a third of that. A code finds its bucket by its number; a public id through the multi-entry index
 * on `publicIds`. Each tag is stored as a tuple (`Packed`), its URL only when it is not the bucket's base plus
 * its public id.
 */

const BLOCK = 64

type Packed = [
  id: string,
  publicId: string,
  code: string,
  name: string,
  foregroundColor: string,
  backgroundColor: string,
  createdAt: string,
  gen: string | null,
  url: string | null,
  keyId: string | null,
  keyName: string | null,
  keychainId: string | null,
  keychainName: string | null,
  /** Only when the tag is declared lost (most tags: the tuple stops before it). */
  lostAt?: string,
]

function bucketIdOf(organizationId: string, code: string): string {
  if (!TAG_CODE_PATTERN.test(code)) return `${organizationId}|${code}`
  const [alpha, number] = code.split('-') as [string, string]
  return `${organizationId}|${alpha}|${Math.floor(Number(number) / BLOCK)}`
}

const urlBaseOf = (tag: MirroredTag) =>
  tag.url.endsWith(tag.publicId) ? tag.url.slice(0, -tag.publicId.length) : ''

function pack(tag: MirroredTag, base: string): Packed {
  const { key } = tag
  const packed: Packed = [
    tag.id,
    tag.publicId,
    tag.code,
    tag.name,
    tag.foregroundColor,
    tag.backgroundColor,
    tag.createdAt,
    tag.gen ?? null,
    tag.url === base + tag.publicId ? null : tag.url,
    key?.id ?? null,
    key?.name ?? null,
    key?.keychainId ?? null,
    key?.keychainName ?? null,
  ]
  if (tag.lostAt) packed.push(tag.lostAt)
  return packed
}

function unpack(packed: Packed, bucket: TagBucket): MirroredTag {
  const [id, publicId, code, name, foregroundColor, backgroundColor, createdAt, gen, url] = packed
  const [, , , , , , , , , keyId, keyName, keychainId, keychainName, lostAt] = packed
  return {
    id,
    publicId,
    code,
    name,
    foregroundColor,
    backgroundColor,
    createdAt,
    url: url ?? bucket.urlBase + publicId,
    key:
      keyId !== null && keyName !== null && keychainId !== null && keychainName !== null
        ? { id: keyId, name: keyName, keychainId, keychainName }
        : null,
    organizationId: bucket.organizationId,
    ...(gen !== null ? { gen } : {}),
    ...(lostAt ? { lostAt } : {}),
  }
}

const tagsOf = (bucket: TagBucket) => bucket.tags.map((packed) => unpack(packed as Packed, bucket))

function bucketWith(id: string, organizationId: string, urlBase: string, tags: MirroredTag[]): TagBucket {
  const sorted = tags.sort((a, b) => a.code.localeCompare(b.code))
  return {
    id,
    organizationId,
    urlBase,
    publicIds: sorted.map((tag) => tag.publicId),
    tags: sorted.map((tag) => pack(tag, urlBase)),
  }
}

/**
 * Writes tags in place of those with the same id (a tag keeps its code and organization); a tag written
 * without a generation keeps the one it had. Call it inside a transaction over `tagBuckets`.
 */
export async function putTags(db: TrousseauDb, tags: MirroredTag[]): Promise<void> {
  if (tags.length === 0) return
  const groups = Map.groupBy(tags, (tag) => bucketIdOf(tag.organizationId, tag.code))
  const ids = [...groups.keys()]
  const current = await db.tagBuckets.bulkGet(ids)
  await db.tagBuckets.bulkPut(
    ids.map((id, index) => {
      const incoming = groups.get(id)!
      const bucket = current[index]
      const byId = new Map(bucket ? tagsOf(bucket).map((tag) => [tag.id, tag]) : [])
      for (const tag of incoming) {
        const gen = tag.gen ?? byId.get(tag.id)?.gen
        byId.set(tag.id, { ...tag, ...(gen ? { gen } : {}) })
      }
      const first = incoming[0]!
      return bucketWith(id, first.organizationId, bucket?.urlBase ?? urlBaseOf(first), [...byId.values()])
    }),
  )
}

export async function tagByCode(db: TrousseauDb, organizationId: string, code: string) {
  const bucket = await db.tagBuckets.get(bucketIdOf(organizationId, code))
  const index = bucket?.tags.findIndex((packed) => (packed as Packed)[2] === code) ?? -1
  return bucket && index >= 0 ? unpack(bucket.tags[index] as Packed, bucket) : undefined
}

export async function tagByPublicId(db: TrousseauDb, publicId: string) {
  const bucket = await db.tagBuckets.where('publicIds').equals(publicId).first()
  const index = bucket?.publicIds.indexOf(publicId) ?? -1
  return bucket && index >= 0 ? unpack(bucket.tags[index] as Packed, bucket) : undefined
}

/** Every mirrored tag (a full read: sweeps and tests, never the scan path). */
export async function allTags(db: TrousseauDb): Promise<MirroredTag[]> {
  return (await db.tagBuckets.toArray()).flatMap(tagsOf)
}

/** Removes the tags `gone` says so of, bucket by bucket (a full read: sweeps and roles with few tags). */
export async function removeTags(db: TrousseauDb, gone: (tag: MirroredTag) => boolean): Promise<void> {
  const buckets = await db.tagBuckets.toArray()
  for (const bucket of buckets) {
    const tags = tagsOf(bucket)
    const kept = tags.filter((tag) => !gone(tag))
    if (kept.length === tags.length) continue
    if (kept.length === 0) await db.tagBuckets.delete(bucket.id)
    else await db.tagBuckets.put(bucketWith(bucket.id, bucket.organizationId, bucket.urlBase, kept))
  }
}
