import { describe, expect, it } from 'vitest'
import type { OutboxItem } from './db.ts'
import { keychainsAwaitingPairing } from './pairing-waiting.ts'

const ORGANIZATION = 'org-1'

function item(overrides: Partial<OutboxItem>): OutboxItem {
  return {
    id: 'item',
    seq: 1,
    kind: 'pairCreate',
    userId: 'user-1',
    organizationId: ORGANIZATION,
    value: 'tag-1',
    label: 'LIL-1 → Cave',
    clientTime: '2026-11-27T08:00:00.000Z',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    error: null,
    ...overrides,
  } as OutboxItem
}

describe('keychainsAwaitingPairing', () => {
  it('names the keychain a waiting pairing made (its id is the item’s) or puts a key on', () => {
    const waiting = keychainsAwaitingPairing(
      [
        item({ id: 'made-here', kind: 'pairCreate', name: 'Cave' }),
        item({ id: 'attach', kind: 'pairAttach', keychainId: 'garage' }),
      ],
      ORGANIZATION,
    )
    expect([...waiting].sort()).toEqual(['garage', 'made-here'])
  })

  it('leaves out what was sent or refused, other organizations, and other field actions', () => {
    const waiting = keychainsAwaitingPairing(
      [
        item({ id: 'sent', status: 'sent' }),
        item({ id: 'refused', status: 'failed', kind: 'pairAttach', keychainId: 'cellar' }),
        item({ id: 'elsewhere', organizationId: 'org-2' }),
        item({ id: 'elsewhere-attach', organizationId: 'org-2', kind: 'pairAttach', keychainId: 'attic' }),
        item({ id: 'scan', kind: 'scan' }),
        item({ id: 'pickup', kind: 'pickup', keychainId: 'shed' }),
        item({ id: 'attach-without-keychain', kind: 'pairAttach' }),
      ],
      ORGANIZATION,
    )
    expect([...waiting]).toEqual([])
  })
})
