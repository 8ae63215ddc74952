import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderWithProviders, renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { resolvedScan, returned, returning, scheduled, transferred } from '../../../tests/scan-rows.ts'
import { ScanResultCard } from './ScanResultCard.tsx'
import { shortDay } from './TruthLine.tsx'
import { scanTruth } from './truth.ts'

const keeper = { id: 'u-keep', email: 'marc@example.com', firstName: 'Marc', lastName: 'Petit' }
const { recipient } = scheduled
const ME = 'u-me'
const pickedUp = {
  ...transferred,
  pickups: [
    {
      id: 'p1',
      kind: 'PICKUP' as const,
      by: recipient,
      clientTime: null,
      serverTime: '2026-11-22T09:30:00.000Z',
      fromQueue: false,
    },
  ],
}

beforeAll(async () => {
  await useLocale('en')
})

const truthLine = () => document.querySelector('[data-scan-truth]')?.textContent ?? null

describe("the scan card's one line of truth", () => {
  it.each([
    ['a keychain nobody holds, no transfer, is free', resolvedScan({}), null, ME, { kind: 'free' }],
    [
      'the custodian holds it',
      resolvedScan({ keychain: { id: 'k1', name: 'Cave du 14', custodian: keeper } }),
      null,
      ME,
      { kind: 'held', person: keeper, since: null, due: null, overdue: false },
    ],
    [
      'the caller is its custodian',
      resolvedScan({ keychain: { id: 'k1', name: 'Cave du 14', custodian: keeper } }),
      null,
      keeper.id,
      { kind: 'mine', due: null, overdue: false },
    ],
    [
      'out, the recipient holds it since its pickup, whatever an older copy says',
      resolvedScan({ transfer: { ...pickedUp, status: 'RETURNING', next: 'RETURN', refusal: null } }),
      null,
      ME,
      {
        kind: 'held',
        person: recipient,
        since: '2026-11-22T09:30:00.000Z',
        due: '2026-11-24',
        overdue: false,
      },
    ],
    [
      'out to the caller: with them, due back on the to-date',
      resolvedScan({ transfer: transferred }),
      null,
      recipient.id,
      { kind: 'mine', due: '2026-11-24', overdue: false },
    ],
    [
      'out to the caller and overdue',
      resolvedScan({ transfer: { ...returning, expired: true } }),
      null,
      recipient.id,
      { kind: 'mine', due: '2026-11-24', overdue: true },
    ],
    [
      'right after the pickup confirmed here (queued: no pickup row yet)',
      resolvedScan({ transfer: scheduled }),
      transferred,
      ME,
      { kind: 'held', person: recipient, since: null, due: '2026-11-24', overdue: false },
    ],
    [
      'after the return confirmed here',
      resolvedScan({ transfer: returning }),
      returned,
      ME,
      { kind: 'returned' },
    ],
    [
      'a contact with a pickup waiting: when, never who holds it',
      resolvedScan({
        actions: ['pickup__transfer'],
        keychain: { id: 'k1', name: 'Cave du 14', custodian: keeper },
        transfer: scheduled,
      }),
      null,
      recipient.id,
      { kind: 'booked', from: '2026-11-22', to: '2026-11-24' },
    ],
    [
      'a contact holding it: with them',
      resolvedScan({ actions: ['pickup__transfer'], transfer: transferred }),
      null,
      recipient.id,
      { kind: 'mine', due: '2026-11-24', overdue: false },
    ],
    [
      'a contact is told nothing of a transfer that is not theirs',
      resolvedScan({ actions: ['pickup__transfer'], transfer: transferred }),
      null,
      ME,
      null,
    ],
    [
      'a contact is told nothing of a keychain without their transfer (not even "free")',
      resolvedScan({ actions: ['pickup__transfer'] }),
      null,
      ME,
      null,
    ],
    ['a tag on no key', resolvedScan({ key: null, keychain: null }), null, ME, { kind: 'untagged' }],
  ] as const)('%s', (_, result, moved, viewer, truth) => {
    expect(scanTruth(result, moved, viewer)).toEqual(truth)
  })

  it('writes short days in the active locale, with the year only when it is not this one', () => {
    const now = new Date('2026-06-01T12:00:00Z')
    expect(shortDay('2026-11-26', 'fr', now)).toBe('26 nov.')
    expect(shortDay('2026-11-26', 'en', now)).toBe('26 Nov')
    expect(shortDay('2027-01-03', 'fr', now)).toBe('3 janv. 2027')
    expect(shortDay('2026-11-26T23:30:00.000Z', 'en', now)).toMatch(/^2[67] Nov$/)
  })
})

describe('scan result card', () => {
  it('states who holds it and when it is due back, and no "Key:" line', () => {
    renderWithProviders(
      <ScanResultCard
        result={resolvedScan({
          transfer: { ...pickedUp, status: 'RETURNING', next: 'RETURN', refusal: null },
        })}
        viewerId={ME}
        canOpenKeychain={false}
      />,
    )
    expect(truthLine()).toMatch(/^With Léa Martin since 22 Nov( 2026)?, due back 24 Nov( 2026)?$/)
    // Read with the heading, where the focus lands after a scan.
    const heading = screen.getByRole('heading', { name: 'Cave du 14' })
    expect(document.getElementById(heading.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      truthLine(),
    )
    expect(screen.queryByText(/^Key:/)).toBeNull()
  })

  it('to the recipient holding it: "with you", in French too', async () => {
    await useLocale('fr')
    renderWithProviders(
      <ScanResultCard result={resolvedScan({ transfer: transferred })} viewerId={recipient.id} />,
    )
    expect(truthLine()).toMatch(/^Chez vous, à rendre le 24 nov\.( 2026)?$/)
    await useLocale('en')
  })

  it('says "Free" of a keychain nobody holds', () => {
    renderWithProviders(<ScanResultCard result={resolvedScan({})} viewerId={ME} canOpenKeychain={false} />)
    expect(truthLine()).toBe('Free')
  })

  it('to a contact resolving offline (no key, no holder known), says neither "no key" nor who holds it', () => {
    renderWithProviders(
      <ScanResultCard
        result={resolvedScan({ key: null, actions: ['pickup__transfer'], transfer: scheduled })}
        moved={null}
        viewerId={ME}
        canOpenKeychain={false}
        transfer={null}
      />,
    )
    expect(screen.getByRole('heading', { name: 'Cave du 14' })).toBeTruthy()
    expect(screen.queryByText('This tag is not on a key yet.')).toBeNull()
    expect(truthLine()).toBeNull()
    expect(document.body.textContent).not.toMatch(/nobody|Free/)
  })

  it('offers its holder to hand it over from phone to phone, not while it is out on a transfer', async () => {
    const held = resolvedScan({ keychain: { id: 'k1', name: 'Cave du 14', custodian: keeper } })
    const { unmount } = await renderWithRouter(
      <ScanResultCard result={held} viewerId={keeper.id} canOpenKeychain={false} canHandOver />,
    )
    expect(screen.getByRole('link', { name: 'Hand over' }).getAttribute('href')).toBe('/en/app/handover/k1')
    unmount()
    // Someone else's, a role that may not, or lent on a transfer (it goes back through its transfer).
    for (const [result, viewer, may] of [
      [held, ME, true],
      [held, keeper.id, false],
      [resolvedScan({ transfer: transferred }), recipient.id, true],
    ] as const) {
      const shown = await renderWithRouter(
        <ScanResultCard result={result} viewerId={viewer} canOpenKeychain={false} canHandOver={may} />,
      )
      expect(screen.queryByRole('link', { name: 'Hand over' })).toBeNull()
      shown.unmount()
    }
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
    expect(truthLine()).toBeNull()
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
