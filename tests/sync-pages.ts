import { beforeEach } from 'vitest'
import type { SyncPage } from '../contract/sync.ts'
import { applySyncPage, type SyncState } from '../src/offline/apply.ts'
import { resetOfflineDbForTests, withDb } from '../src/offline/db.ts'
import { claimMirror } from '../src/offline/mirror.ts'
import { enqueue } from '../src/offline/outbox.ts'
import { ADMIN, CONTACT, NOW, ORG } from './offline-rows.ts'

/** For the tests of the device's mirror: an empty mirror, pages of the change feed, a pickup waiting beside them. */

/** Before each test of the file: an empty offline database, its mirror claimed by ADMIN. */
export const startEachWithAnEmptyMirror = () =>
  beforeEach(async () => {
    await resetOfflineDbForTests()
    await claimMirror(ADMIN)
  })

let cursors = 0
/** A page of changes of ORG, empty unless told, under a cursor no other page has. */
export const page = (overrides: Partial<SyncPage> = {}): SyncPage => ({
  reset: false,
  phase: 'changes',
  organizationId: ORG,
  keychains: [],
  tags: [],
  transfers: [],
  deviceKeys: [],
  deleted: { keychains: [] },
  cursor: `cursor-${++cursors}`,
  more: false,
  progress: null,
  ...overrides,
})

/** Writes a page for ADMIN (who reads tags), asked for at NOW, expecting the stored state to be `expected`. */
export const applyExpecting = (each: SyncPage, expected: SyncState | null) =>
  withDb((db) =>
    applySyncPage(db, {
      page: each,
      userId: ADMIN,
      expected,
      requestedAt: NOW.toISOString(),
      readsTags: true,
    }),
  )

/** CONTACT's pickup of the transfer, waiting in the outbox. */
export const queuePickup = (transferId = 'tr-1') =>
  enqueue({ kind: 'pickup', userId: CONTACT, organizationId: ORG, value: transferId, label: 'Cave' })
