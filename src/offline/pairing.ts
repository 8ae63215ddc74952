import type { Keychain } from '../../contract/keychains.ts'
import type { Tag } from '../../contract/tags.ts'
import { ApiError } from '../lib/api.ts'
import { withDb } from './db.ts'
import { type FieldContext, sendOnce } from './field.ts'
import { enqueue } from './outbox.ts'
import { type Pairing, settlePairing, showWaiting } from './pairing-mirror.ts'

/** What a pairing gave: the keychain the tag is on now; `queued`: made on this device, waiting for the server. */
export type Paired = { keychainId: string; keychainName: string; queued: boolean }

/** The name of the tag's key: its code, printed on it (the keychain has the name the person typed). */
const keyNameOf = (tag: Tag) => tag.code

/**
 * Pairs a scanned free tag: kept in the outbox first (one Idempotency-Key, replayed exactly once), then sent.
 * The server's "no" to a pairing made online is thrown (nothing kept); without an answer the pairing shows at
 * once on this device, waiting, and the outbox sends it when the network returns.
 */
export async function submitPairing(context: FieldContext, pairing: Pairing): Promise<Paired> {
  const keyName = keyNameOf(pairing.tag)
  const create = pairing.kind === 'create'
  const item = await enqueue({
    kind: create ? 'pairCreate' : 'pairAttach',
    ...context,
    value: pairing.tag.id,
    label: `${pairing.tag.code} → ${create ? pairing.name : pairing.keychain.name}`,
    pairing: {
      keyName,
      tagPublicId: pairing.tag.publicId,
      ...(create ? { name: pairing.name } : { keychainId: pairing.keychain.id }),
    },
    claim: true,
  })
  const outcome = await sendOnce(item)
  if (outcome.kind === 'refused') {
    await withDb((db) => db.outbox.delete(item.id))
    throw new ApiError(outcome.status, outcome.code, outcome.message)
  }
  if (outcome.kind === 'sent') {
    await settlePairing(item, outcome)
    const keychainId = create ? (outcome.result as Keychain).id : pairing.keychain.id
    return { keychainId, keychainName: create ? pairing.name : pairing.keychain.name, queued: false }
  }
  await showWaiting(item, pairing)
  return {
    keychainId: create ? item.id : pairing.keychain.id,
    keychainName: create ? pairing.name : pairing.keychain.name,
    queued: true,
  }
}
