import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ActivityEntry } from '../../../contract/activity.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { activityExportHref } from '../../api/activity.ts'
import { ActivityScreen } from './ActivityScreen.tsx'

const entry = (seq: number, overrides: Partial<ActivityEntry> = {}): ActivityEntry => ({
  seq,
  kind: 'transfer.picked_up',
  actor: { id: 'u1', email: 'lea@example.com', firstName: 'Léa', lastName: 'Dupont' },
  serverTime: '2030-01-15T10:00:00.000Z',
  clientTime: null,
  fromQueue: false,
  keychainIds: [],
  tagIds: [],
  transferIds: [],
  payload: {},
  ...overrides,
})

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server answering the list, and the chain check with `check`. */
function server(
  check: { entries: number; valid: boolean; brokenAt: number | null },
  data: ActivityEntry[] = [
    entry(2, { kind: 'transfer.authorized' }),
    entry(1, { fromQueue: true, clientTime: '2030-01-15T09:00:00.000Z' }),
  ],
) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(String(url))
      if (String(url).includes('/verification')) return Response.json(check)
      return Response.json({ data, nextCursor: null })
    }),
  )
  return urls
}

describe('the activity screen', () => {
  it('names a finder as one, and an entry whose author left as such', async () => {
    server({ entries: 2, valid: true, brokenAt: null }, [
      entry(2, { kind: 'found_report.received', actor: null }),
      entry(1, { kind: 'member.invited', actor: null }),
    ])
    renderWithProviders(<ActivityScreen organizationId="o1" filter={{}} onFilterChange={() => undefined} />)
    await screen.findByRole('list', { name: 'Activity' })
    const [found, invited] = screen.getAllByRole('listitem').map((item) => item.textContent)
    expect(found).toContain('Found keys reported')
    expect(found).toContain('Someone who found the keys')
    expect(invited).toContain('Member invited')
    expect(invited).toContain('Someone no longer here')
  })

  it('lists the entries with who and when, sends the filters, and links the export to the same view', async () => {
    const urls = server({ entries: 2, valid: true, brokenAt: null })
    const filter = { kind: 'transfer.picked_up' as const, from: '2030-01-01' }
    renderWithProviders(
      <ActivityScreen organizationId="o1" filter={filter} onFilterChange={() => undefined} />,
    )
    await screen.findByRole('list', { name: 'Activity' })
    const items = screen.getAllByRole('listitem').map((item) => item.textContent)
    expect(items).toHaveLength(2)
    expect(items.every((text) => text?.includes('Léa Dupont'))).toBe(true)
    expect(items[0]).toContain('Transfer authorized')
    expect(items[1]).toContain('Picked up')
    expect(items[1]).toContain('done offline at')
    expect(urls[0]).toContain('/api/activity?kind=transfer.picked_up&from=2030-01-01')
    const link = screen.getByRole('link', { name: 'Export as CSV' })
    expect(link.getAttribute('href')).toBe(activityExportHref(filter))
    expect(link.getAttribute('href')).toBe('/api/activity/export?kind=transfer.picked_up&from=2030-01-01')
  })

  it('searches the words typed once submitted, keeping the other filters, and sends the search', async () => {
    const urls = server({ entries: 2, valid: true, brokenAt: null })
    const onFilterChange = vi.fn()
    const filter = { q: 'cave', kind: 'transfer.picked_up' as const }
    renderWithProviders(
      <ActivityScreen organizationId="o1" filter={filter} onFilterChange={onFilterChange} />,
    )
    await screen.findByRole('list', { name: 'Activity' })
    expect(urls[0]).toContain('/api/activity?q=cave&kind=transfer.picked_up')
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/activity/export?q=cave&kind=transfer.picked_up',
    )
    const field = screen.getByRole('textbox', { name: 'Search a keychain, key, tag or person' })
    expect((field as HTMLInputElement).value).toBe('cave')
    fireEvent.change(field, { target: { value: '  Appartement 12 ' } })
    expect(onFilterChange).not.toHaveBeenCalled()
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(onFilterChange).toHaveBeenCalledWith({ q: 'Appartement 12', kind: 'transfer.picked_up' })
    fireEvent.change(field, { target: { value: ' ' } })
    fireEvent.submit(screen.getByRole('button', { name: 'Search' }).closest('form')!)
    expect(onFilterChange).toHaveBeenLastCalledWith({ q: undefined, kind: 'transfer.picked_up' })
  })

  it('says whether the ledger is intact, and where it was tampered with', async () => {
    server({ entries: 12, valid: false, brokenAt: 7 })
    renderWithProviders(<ActivityScreen organizationId="o1" filter={{}} onFilterChange={() => undefined} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Check the ledger' }))
    })
    expect(
      await screen.findByText('Tampered with: entry #7 or the one before it was changed or removed.'),
    ).toBeTruthy()
  })

  it('offers to clear the filters when a filtered view is empty, and nothing to clear when none is set', async () => {
    server({ entries: 0, valid: true, brokenAt: null }, [])
    const changes: unknown[] = []
    const { unmount } = renderWithProviders(
      <ActivityScreen
        organizationId="o1"
        filter={{ q: 'cave', from: '2030-01-01' }}
        onFilterChange={(filter) => changes.push(filter)}
      />,
    )
    await screen.findByText('Nothing happened in this view.')
    fireEvent.click(screen.getByRole('button', { name: 'Clear the filters' }))
    expect(changes).toEqual([{}])
    unmount()
    renderWithProviders(<ActivityScreen organizationId="o1" filter={{}} onFilterChange={() => undefined} />)
    await screen.findByText('Nothing happened in this view.')
    expect(screen.queryByRole('button', { name: 'Clear the filters' })).toBeNull()
  })
})
