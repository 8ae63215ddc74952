import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { resolvedScan, returned, returning, scheduled, transferred } from '../../../tests/scan-rows.ts'
import { holderAfterMove } from './holder.ts'
import { ScanResultCard } from './ScanResultCard.tsx'

const keeper = { id: 'u-keep', email: 'marc@example.com', firstName: 'Marc', lastName: 'Petit' }
const { recipient } = scheduled

beforeAll(async () => {
  await useLocale('en')
})

const heldBy = () => screen.queryByText(/^Held by:/)?.textContent ?? null

describe('scan result card', () => {
  it.each([
    ['nobody holds a keychain with no transfer', resolvedScan({}), null, { kind: 'nobody' }],
    [
      'the custodian holds it',
      resolvedScan({ keychain: { id: 'k1', name: 'Cave du 14', custodian: keeper } }),
      null,
      { kind: 'person', person: keeper },
    ],
    [
      'the recipient holds it once out, whatever an older copy says',
      resolvedScan({ transfer: returning }),
      null,
      {
        kind: 'person',
        person: recipient,
      },
    ],
    [
      'the recipient holds it right after the pickup',
      resolvedScan({ transfer: scheduled }),
      transferred,
      {
        kind: 'person',
        person: recipient,
      },
    ],
    [
      'the return says where custody went',
      resolvedScan({ transfer: returning }),
      returned,
      { kind: 'hidden' },
    ],
    [
      'a contact is not told who holds it',
      resolvedScan({ actions: ['pickup__transfer'], transfer: scheduled }),
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
        result={resolvedScan({ key: null, actions: ['pickup__transfer'], transfer: scheduled })}
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
        result={resolvedScan({ key: null, keychain: null })}
        moved={null}
        canOpenKeychain={false}
        transfer={null}
      />,
    )
    expect(screen.getByText('This tag is not on a key yet.')).toBeTruthy()
  })
})

describe('scan result card of a lost tag', () => {
  const lost = {
    status: 'lost' as const,
    scanId: 's-lost',
    tag: { id: 't1', code: 'AGC-00042', name: 'Agence', lostAt: '2030-01-15T09:00:00.000Z' },
  }

  it('says the tag is lost, opens no keychain, and that the admins were told', () => {
    renderWithProviders(<ScanResultCard result={lost} />)
    expect(screen.getByRole('heading', { name: 'Lost tag' })).toBeTruthy()
    expect(screen.getByText(/Tag AGC-00042 \(Agence\) was declared lost/)).toBeTruthy()
    expect(screen.getByText('Its administrators have been told of this scan.')).toBeTruthy()
    expect(screen.queryByRole('link')).toBeNull()
    expect(heldBy()).toBeNull()
  })

  it('offline, says they will be told when the network returns', () => {
    renderWithProviders(<ScanResultCard result={lost} offline />)
    expect(
      screen.getByText('Its administrators will be told of this scan when the network returns.'),
    ).toBeTruthy()
  })

  it('in French too', async () => {
    await useLocale('fr')
    renderWithProviders(<ScanResultCard result={lost} />)
    expect(screen.getByRole('heading', { name: 'Étiquette perdue' })).toBeTruthy()
    expect(screen.getByText(/L’étiquette AGC-00042 \(Agence\) a été déclarée perdue/)).toBeTruthy()
    await useLocale('en')
  })
})
