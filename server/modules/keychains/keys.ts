import { and, eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Key, KeyCreate } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { keychains, keys, tags } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { toKey } from '../../shared/key-view.ts'
import { appendEvent } from '../events/append.ts'
import { findKeychain } from './find.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>

const tagTaken = () => new ApiError(409, ErrorCode.tagTaken, 'This tag is already on a key.')

async function touch(db: Db, keychainId: string, now: Date) {
  await db.update(keychains).set({ updatedAt: now }).where(eq(keychains.id, keychainId))
}

/** A tag of the organization that no key holds yet; a tag of another organization reads as unknown. */
async function freeTag(db: Db, organizationId: string, tagId: string) {
  const [row] = await db
    .select({ tag: tags, keyId: keys.id })
    .from(tags)
    .leftJoin(keys, eq(keys.tagId, tags.id))
    .where(and(eq(tags.id, tagId), eq(tags.organizationId, organizationId)))
  if (!row) {
    const message = 'No such tag in this organization.'
    throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'tagId', message }] })
  }
  if (row.keyId) throw tagTaken()
  return row.tag
}

type KeyInput = { organizationId: string; keychainId: string; key: KeyCreate; actorId?: string | null }

/** Adds the key inside the caller's transaction (`tx`): a TAG key takes a free tag of the organization. */
export async function addKeyIn(tx: Db, input: KeyInput & { now: Date }): Promise<Key> {
  const { key, now } = input
  const keychain = await findKeychain(tx, input.organizationId, input.keychainId)
  const tag = key.type === 'TAG' ? await freeTag(tx, input.organizationId, key.tagId) : null
  const [row] = await tx
    .insert(keys)
    .values({
      keychainId: keychain.id,
      name: key.name,
      type: key.type,
      tagId: tag?.id ?? null,
      createdAt: now,
    })
    .returning()
  if (!row) throw new Error('key insert returned no row')
  await touch(tx, keychain.id, now)
  await appendEvent(tx, {
    organizationId: input.organizationId,
    kind: 'key.added',
    actorId: input.actorId ?? null,
    serverTime: now,
    keychainIds: [keychain.id],
    tagIds: tag ? [tag.id] : [],
    payload: { keyId: row.id, name: row.name, type: row.type },
  })
  return toKey(row, tag && { id: tag.id, publicId: tag.publicId, code: tag.code, name: tag.name })
}

/** Runs `write`; two keys racing for one tag meet the unique index, which lets one in: the other is 409. */
export async function refusingTakenTag<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error, 'keys_tag_id_unique')) throw tagTaken()
    throw error
  }
}

export async function addKey(deps: Deps, input: KeyInput): Promise<Key> {
  const now = deps.clock.now()
  return refusingTakenTag(() => deps.database.db.transaction((tx) => addKeyIn(tx, { ...input, now })))
}

async function findKey(db: Db, organizationId: string, keychainId: string, keyId: string) {
  const keychain = await findKeychain(db, organizationId, keychainId)
  const [row] = await db
    .select({ key: keys, tag: { id: tags.id, publicId: tags.publicId, code: tags.code, name: tags.name } })
    .from(keys)
    .leftJoin(tags, eq(tags.id, keys.tagId))
    .where(and(eq(keys.id, keyId), eq(keys.keychainId, keychain.id)))
  if (!row) throw notFound('No such key.')
  return row
}

export async function renameKey(
  deps: Deps,
  input: { organizationId: string; keychainId: string; keyId: string; name: string; actorId?: string | null },
): Promise<Key> {
  const now = deps.clock.now()
  return deps.database.db.transaction(async (tx) => {
    const current = await findKey(tx, input.organizationId, input.keychainId, input.keyId)
    const [row] = await tx
      .update(keys)
      .set({ name: input.name })
      .where(eq(keys.id, current.key.id))
      .returning()
    if (!row) throw notFound('No such key.')
    await touch(tx, row.keychainId, now)
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'key.renamed',
      actorId: input.actorId ?? null,
      serverTime: now,
      keychainIds: [row.keychainId],
      tagIds: current.tag ? [current.tag.id] : [],
      payload: { keyId: row.id, name: { from: current.key.name, to: row.name } },
    })
    return toKey(row, current.tag)
  })
}

/** Removes the key; its tag, if any, becomes free for another key. */
export async function removeKey(
  deps: Deps,
  input: { organizationId: string; keychainId: string; keyId: string; actorId?: string | null },
): Promise<void> {
  const now = deps.clock.now()
  await deps.database.db.transaction(async (tx) => {
    const current = await findKey(tx, input.organizationId, input.keychainId, input.keyId)
    await tx.delete(keys).where(eq(keys.id, current.key.id))
    await touch(tx, current.key.keychainId, now)
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'key.removed',
      actorId: input.actorId ?? null,
      serverTime: now,
      keychainIds: [current.key.keychainId],
      tagIds: current.tag ? [current.tag.id] : [],
      payload: { keyId: current.key.id, name: current.key.name },
    })
  })
}
