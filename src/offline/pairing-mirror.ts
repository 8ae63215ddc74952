import type { Key, Keychain } from '../../contract/keychains.ts'
import type { Tag } from '../../contract/tags.ts'
import { type OutboxItem, type TrousseauDb, withDb } from './db.ts'
import type { SendOutcome } from './outbox.ts'
import { putTags, tagByPublicId } from './tag-store.ts'

/** A scanned free tag, paired: on a new keychain (`name`) or on an existing one (`keychain`). */
export type Pairing =
  | { kind: 'create'; tag: Tag; name: string }
  | { kind: 'attach'; tag: Tag; keychain: { id: string; name: string } }

/** The mirrored tag now on `key` of `keychain` (or on none), so that scanning it again on this device says so. */
async function markTag(
  db: TrousseauDb,
  organizationId: string,
  tag: Tag,
  key: { id: string; name: string; keychainId: string; keychainName: string } | null,
) {
  const current = await tagByPublicId(db, tag.publicId)
  await putTags(db, [{ ...(current ?? { ...tag, organizationId }), key }])
}

/** A keychain as the device shows it while the server has not answered (ids made on the device). */
function waitingKeychain(item: OutboxItem, tag: Tag): Keychain {
  return {
    id: item.id,
    organizationId: item.organizationId,
    organizationName: '',
    name: item.name ?? '',
    custodian: null,
    keys: [
      {
        id: item.id,
        name: item.keyName ?? tag.code,
        type: 'TAG',
        tag: { id: tag.id, publicId: tag.publicId, code: tag.code, name: tag.name },
      },
    ],
    createdAt: item.clientTime,
    updatedAt: item.clientTime,
  }
}

/** Shows the pairing at once on this device, marked as waiting (the server's answer replaces it). */
export async function showWaiting(item: OutboxItem, pairing: Pairing): Promise<void> {
  await withDb((db) =>
    db.transaction('rw', db.keychains, db.tagBuckets, async () => {
      if (pairing.kind === 'create') {
        const keychain = waitingKeychain(item, pairing.tag)
        await db.keychains.put({
          id: keychain.id,
          organizationId: keychain.organizationId,
          summary: null,
          detail: keychain,
          waiting: true,
        })
      } else {
        const row = await db.keychains.get(pairing.keychain.id)
        if (row?.detail) {
          const [key] = waitingKeychain(item, pairing.tag).keys
          await db.keychains.put({
            ...row,
            summary: null,
            detail: { ...row.detail, keys: [...row.detail.keys, key!] },
          })
        }
      }
      const keychainId = pairing.kind === 'create' ? item.id : pairing.keychain.id
      const keychainName = pairing.kind === 'create' ? pairing.name : pairing.keychain.name
      await markTag(db, item.organizationId, pairing.tag, {
        id: item.id,
        name: item.keyName ?? pairing.tag.code,
        keychainId,
        keychainName,
      })
    }),
  )
}

/**
 * The server answered a pairing (at once or replayed by the outbox): its keychain and key replace what the
 * device made meanwhile; a refusal takes the waiting one away (the change feed then brings the truth).
 */
export async function settlePairing(item: OutboxItem, outcome: SendOutcome): Promise<void> {
  if (outcome.kind !== 'sent' && outcome.kind !== 'refused') return
  await withDb((db) =>
    db.transaction('rw', db.keychains, db.tagBuckets, async () => {
      const waiting = await db.keychains.get(item.id)
      if (waiting?.waiting) await db.keychains.delete(item.id)
      if (item.kind === 'pairAttach' && item.keychainId) {
        const row = await db.keychains.get(item.keychainId)
        if (row?.detail) {
          const keys = row.detail.keys.filter((key) => key.id !== item.id)
          if (outcome.kind === 'sent') keys.push(outcome.result as Key)
          await db.keychains.put({ ...row, summary: null, detail: { ...row.detail, keys } })
        }
      }
      if (outcome.kind === 'sent' && item.kind === 'pairCreate') {
        const keychain = outcome.result as Keychain
        await db.keychains.put({
          id: keychain.id,
          organizationId: keychain.organizationId,
          summary: null,
          detail: keychain,
        })
        const key = keychain.keys.find((each) => each.tag?.id === item.value)
        const tag = key?.tag && (await tagByPublicId(db, key.tag.publicId))
        if (key && tag)
          await putTags(db, [
            {
              ...tag,
              key: { id: key.id, name: key.name, keychainId: keychain.id, keychainName: keychain.name },
            },
          ])
      }
      if (outcome.kind === 'sent' && item.kind === 'pairAttach') {
        const key = outcome.result as Key
        const tag = key.tag && (await tagByPublicId(db, key.tag.publicId))
        const row = item.keychainId ? await db.keychains.get(item.keychainId) : undefined
        if (tag && item.keychainId)
          await putTags(db, [
            {
              ...tag,
              key: {
                id: key.id,
                name: key.name,
                keychainId: item.keychainId,
                keychainName: row?.detail?.name ?? row?.summary?.name ?? '',
              },
            },
          ])
      }
      const tag = item.tagPublicId ? await tagByPublicId(db, item.tagPublicId) : undefined
      // Refused: only what this pairing assumed goes (the tag may be on another device's keychain now).
      if (outcome.kind === 'refused' && tag?.key?.id === item.id) await putTags(db, [{ ...tag, key: null }])
    }),
  )
}
