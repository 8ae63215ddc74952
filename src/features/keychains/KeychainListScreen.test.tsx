import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { KeychainListScreen } from './KeychainListScreen.tsx'

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const keychain = (n: number): KeychainSummary => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Cave ${n}`,
  custodian: null,
  keyCount: 0,
  tagCodes: [],
  updatedAt: '2030-01-01T00:00:00.000Z',
})

function server() {
  const sent: Array<{ url: string; body: string }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({ url: String(url), body: String(init.body) })
      if (String(url).startsWith('/api/keychains'))
        return Response.json({ data: [keychain(1), keychain(2), keychain(3)], nextCursor: null })
      return Response.json({ count: 3, unchanged: 0 })
    }),
  )
  return sent
}

async function renderScreen() {
  await renderWithRouter(
    <AbilityProvider permissions={['read__keychain', 'update__keychain', 'delete__keychain']}>
      <KeychainListScreen
        organizationId="o1"
        members={[]}
        currentUserId="u1"
        timeZone="Europe/Paris"
        onOpen={() => undefined}
      />
    </AbilityProvider>,
  )
  await screen.findByText('Cave 1')
}

describe('selecting keychains on the list', () => {
  it('ticks rows, counts them in the bar, and clears', async () => {
    server()
    await renderScreen()
    expect(screen.queryByRole('region', { name: 'Selected keychains' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Select all/ })).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select Cave 1' }))
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select Cave 3' }))
    })
    const bar = await screen.findByRole('region', { name: 'Selected keychains' })
    expect(within(bar).getByText('2 keychains selected')).toBeTruthy()
    const link = within(bar).getByRole('link', { name: 'Export' })
    expect(link.getAttribute('href')).toBe(
      `/api/keychain-export?ids=${encodeURIComponent(`${keychain(1).id},${keychain(3).id}`)}`,
    )
    await act(async () => {
      fireEvent.click(within(bar).getByRole('button', { name: 'Clear the selection' }))
    })
    expect(screen.queryByRole('region', { name: 'Selected keychains' })).toBeNull()
    expect((screen.getByRole('checkbox', { name: 'Select Cave 1' }) as HTMLInputElement).checked).toBe(false)
  })

  it('with a search, selects all matching (the rows of the complete list: the search also finds tags and holders), and unticking one leaves the others', async () => {
    server()
    await renderScreen()
    await act(async () => {
      fireEvent.change(
        screen.getByRole('searchbox', { name: 'Search keychains by name, tag code or holder' }),
        {
          target: { value: 'cave' },
        },
      )
    })
    const all = await screen.findByRole('button', { name: 'Select all 3 matching' })
    await act(async () => {
      fireEvent.click(all)
    })
    const bar = await screen.findByRole('region', { name: 'Selected keychains' })
    expect(within(bar).getByText('3 keychains selected')).toBeTruthy()
    expect(within(bar).getByRole('link', { name: 'Export' }).getAttribute('href')).toBe(
      `/api/keychain-export?ids=${encodeURIComponent([1, 2, 3].map((n) => keychain(n).id).join(','))}`,
    )
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(true)
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select Cave 2' }))
    })
    expect(within(bar).getByText('2 keychains selected')).toBeTruthy()
    await act(async () => {
      fireEvent.click(within(bar).getByRole('button', { name: 'Clear the selection' }))
    })
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(false)
  })
})
