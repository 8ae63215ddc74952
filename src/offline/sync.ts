import { syncEndpoints } from '../../contract/endpoints/sync.ts'
import { SYNC_PAGE_MAX } from '../../contract/sync.ts'
import { call } from '../lib/call.ts'
import { yieldToMain } from '../lib/yield-to-main.ts'
import { applySyncPage, readSyncState, type SyncState } from './apply.ts'
import { withDb } from './db.ts'
import type { FieldContext } from './field.ts'
import { reportSyncProgress } from './sync-progress.ts'

const LOCK_NAME = 'trousseau-sync'

/** Runs `work` unless another tab of this app is syncing (it writes the same rows and cursor). */
async function asSingleSyncer<T>(work: () => Promise<T>): Promise<T | null> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => (lock ? work() : null))
  }
  return work()
}

export type SyncOutcome = 'synced' | 'busy' | 'stopped'

/**
 * Brings the mirror up to date with the change feed of the selected organization: the pages since the stored
 * cursor (none: a full sync, shown as progress), each written with its cursor in one transaction, until the
 * feed says there is no more. Stops without writing when the session moved on (another organization selected,
 * another account, another tab's sync).
 */
export async function syncMirror(
  context: FieldContext,
  options: { pageSize?: number } = {},
): Promise<SyncOutcome> {
  const outcome = await asSingleSyncer(async (): Promise<SyncOutcome> => {
    let state: SyncState | null = await withDb(readSyncState)
    const readsTags = context.permissions.includes('read__tag')
    try {
      for (;;) {
        const fits =
          state && state.userId === context.userId && state.organizationId === context.organizationId
        const limit = String(options.pageSize ?? SYNC_PAGE_MAX)
        const requestedAt = new Date().toISOString()
        const page = await call(syncEndpoints.changes, {
          query: { limit, cursor: fits ? state!.cursor : undefined },
        })
        if (page.organizationId !== context.organizationId) return 'stopped'
        const expected = state
        const next = await withDb((db) =>
          applySyncPage(db, { page, userId: context.userId, expected, requestedAt, readsTags }),
        )
        if (!next) return 'stopped'
        state = next
        reportSyncProgress(page.phase === 'snapshot' ? page.progress : null)
        if (!page.more) return 'synced'
        await yieldToMain()
      }
    } finally {
      reportSyncProgress(null)
    }
  })
  return outcome ?? 'busy'
}
