import type { OutboxItem } from './db.ts'

/**
 * The keychains of `organizationId` that a pairing still waiting in the outbox made (`pairCreate`: while it
 * waits, the keychain's id is the item's) or puts a key on (`pairAttach`): lists mark them "waiting to sync".
 * A refused pairing (`failed`) waits for nothing: the sync panel shows it.
 */
export function keychainsAwaitingPairing(
  items: readonly OutboxItem[],
  organizationId: string,
): ReadonlySet<string> {
  const ids = new Set<string>()
  for (const item of items) {
    if (item.status !== 'pending' || item.organizationId !== organizationId) continue
    if (item.kind === 'pairCreate') ids.add(item.id)
    else if (item.kind === 'pairAttach' && item.keychainId) ids.add(item.keychainId)
  }
  return ids
}
