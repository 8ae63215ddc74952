// The scan screen composes two features: the scan result card and, under it, the transfer's pickup card.
import { act, fireEvent, screen } from '@testing-library/react'
import { useState } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Transfer } from '../../contract/transfers.ts'
import { renderWithProviders, useLocale } from '../../tests/render.tsx'
import {
  type ResolvedScan,
  resolvedScan,
  returned,
  returning,
  scheduled,
  transferred,
} from '../../tests/scan-rows.ts'
import { ScanResultCard } from '../features/scan/ScanResultCard.tsx'
import { TransferPickupCard } from '../features/transfers/TransferPickupCard.tsx'

/** The card as the scan screen composes it: a confirmation on the transfer updates the card above it. */
function ScannedCard({ result, answer }: { result: ResolvedScan; answer: Transfer }) {
  const [moved, setMoved] = useState<Transfer | null>(null)
  return (
    <ScanResultCard
      result={result}
      moved={moved}
      canOpenKeychain={false}
      transfer={
        result.transfer ? (
          <TransferPickupCard
            transfer={result.transfer}
            confirm={async () => ({ transfer: answer, queued: false })}
            onMoved={setMoved}
          />
        ) : null
      }
    />
  )
}

beforeAll(async () => {
  await useLocale('en')
})

// The card's one line of truth (a date's year shows only when it is not this one).
const truth = () => document.querySelector('[data-scan-truth]')?.textContent?.replace(/ \d{4}\b/g, '') ?? null

describe('the scan result with its transfer', () => {
  it.each([
    {
      rule: 'states the recipient as the holder after a pickup, never "nobody"',
      transfer: scheduled,
      answer: transferred,
      heldBefore: 'Free',
      button: 'Confirm the pickup',
      said: 'Picked up: you now hold this keychain.',
      heldAfter: 'With Léa Martin, due back 24 Nov',
    },
    {
      rule: 'after a return, says custody is back and no longer names the recipient as holder',
      transfer: returning,
      answer: returned,
      heldBefore: 'With Léa Martin, due back 24 Nov',
      button: 'Confirm the return',
      said: 'Returned: custody is back with the organization.',
      heldAfter: 'Returned: back with the organization',
    },
  ])('$rule', async ({ transfer, answer, heldBefore, button, said, heldAfter }) => {
    renderWithProviders(<ScannedCard result={resolvedScan({ transfer })} answer={answer} />)
    expect(truth()).toBe(heldBefore)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: button }))
    })
    if (transfer === scheduled) {
      // A first pickup is accepted first: the recipient's typed name (the acceptance step loads on demand).
      fireEvent.change(await screen.findByRole('textbox', { name: 'Your name' }), {
        target: { value: 'Léa Martin' },
      })
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Accept and confirm the pickup' }))
      })
    }
    expect(await screen.findByText(said)).toBeTruthy()
    expect(truth()).toBe(heldAfter)
  })
})
