import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ScanResult } from '../../../contract/scans.ts'
import type { Transfer } from '../../../contract/transfers.ts'
import { transfer } from '../../../tests/offline-rows.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { holderAfterMove } from './holder.ts'
import { ScanResultCard } from './ScanResultCard.tsx'

type Resolved = Extract<ScanResult, { status: 'resolved' }>

const keeper = { id: 'u-keep', email: 'marc@example.com', firstName: 'Marc', lastName: 'Petit' }
const scheduled = transfer('t1')
const { recipient } = scheduled
const transferred: Transfer = { ...scheduled, status: 'TRANSFERRED', next: null, refusal: 'own_return' }
const returning: Transfer = { ...transferred, next: 'RETURN', refusal: null }
const returned: Transfer = { ...transferred, status: 'RETURNED', next: null, refusal: 'already_returned' }
const tag = { id: 'tag1', publicId: 'PUB1', code: 'ARC-00001', name: 'Cave' } as Resolved['tag']

function resolved(overrides: Partial<Resolved>): Resolved {
  return {
    status: 'resolved',
    scanId: 's1',
    tag,
    key: {
      id: 'key1',
      type: 'TAG',
      name: 'Porte cave',
      tag: { id: 'tag1', publicId: 'PUB1', code: 'ARC-00001', name: 'Cave' },
    },
    keychain: { id: 'k1', name: 'Cave du 14', custodian: null },
    actions: ['read__keychain', 'pickup__transfer'],
    transfer: null,
    ...overrides,
  }
}

beforeAll(async () => {
  await useLocale('en')
})

const heldBy = () => screen.queryByText(/^Held by:/)?.textContent ?? null

describe('scan result card', () => {
  it.each([
    ['nobody holds a keychain with no transfer', resolved({}), null, { kind: 'nobody' }],
    [
      'the custodian holds it',
      resolved({ keychain: { id: 'k1', name: 'Cave du 14', custodian: keeper } }),
      null,
      { kind: 'person', person: keeper },
    ],
    [
      'the recipient holds it once out, whatever an older copy says',
      resolved({ transfer: returning }),
      null,
      {
        kind: 'person',
        person: recipient,
      },
    ],
    [
      'the recipient holds it right after the pickup',
      resolved({ transfer: scheduled }),
      transferred,
      {
        kind: 'person',
        person: recipient,
      },
    ],
    ['the return says where custody went', resolved({ transfer: returning }), returned, { kind: 'hidden' }],
    [
      'a contact is not told who holds it',
      resolved({ actions: ['pickup__transfer'], transfer: scheduled }),
      null,
      {
        kind: 'hidden',
      },
    ],
  ] as const)('%s', (_, result, moved, holder) => {
    expect(holderAfterMove(result, moved)).toEqual(holder)
  })

  it('to a contact resolving offline (no key, no holder known), says neither "no key" nor "nobody"', () => {
    renderWithProviders(
      <ScanResultCard
        result={resolved({ key: null, actions: ['pickup__transfer'], transfer: scheduled })}
        moved={null}
        canOpenKeychain={false}
        transfer={null}
      />,
    )
    expect(screen.getByRole('heading', { name: 'Cave du 14' })).toBeTruthy()
    expect(screen.queryByText('This tag is not on a key yet.')).toBeNull()
    expect(heldBy()).toBeNull()
  })

  it('says a free tag is on no key', () => {
    renderWithProviders(
      <ScanResultCard
        result={resolved({ key: null, keychain: null })}
        moved={null}
        canOpenKeychain={false}
        transfer={null}
      />,
    )
    expect(screen.getByText('This tag is not on a key yet.')).toBeTruthy()
  })
})
