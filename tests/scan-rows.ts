import type { ScanResult } from '../contract/scans.ts'
import type { Transfer } from '../contract/transfers.ts'
import { transfer } from './offline-rows.ts'

// A scan answer and a transfer at each step of its life, for the scan card's tests.

export type ResolvedScan = Extract<ScanResult, { status: 'resolved' }>

export const scheduled = transfer('t1')
export const transferred: Transfer = {
  ...scheduled,
  status: 'TRANSFERRED',
  next: null,
  refusal: 'own_return',
}
export const returning: Transfer = { ...transferred, next: 'RETURN', refusal: null }
export const returned: Transfer = {
  ...transferred,
  status: 'RETURNED',
  next: null,
  refusal: 'already_returned',
}

const cave = { id: 'tag1', publicId: 'PUB1', code: 'ARC-00001', name: 'Cave' }

/** The tag of a key on the keychain "Cave du 14", nobody holding it, no transfer; `overrides` change that. */
export function resolvedScan(overrides: Partial<ResolvedScan>): ResolvedScan {
  return {
    status: 'resolved',
    scanId: 's1',
    tag: cave as ResolvedScan['tag'],
    key: { id: 'key1', type: 'TAG', name: 'Porte cave', tag: cave },
    keychain: { id: 'k1', name: 'Cave du 14', custodian: null },
    actions: ['read__keychain', 'pickup__transfer'],
    transfer: null,
    ...overrides,
  }
}
