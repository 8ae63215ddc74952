import { act, fireEvent, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { UnseenKeychain } from '../../../contract/reports.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { UnseenReportScreen } from './UnseenReportScreen.tsx'

const LEA = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'lea@example.com',
  firstName: 'Léa',
  lastName: 'Dupont',
}

const NEVER: UnseenKeychain = { id: 'k1', name: 'Cave', custodian: null, tagCodes: [], lastScanAt: null }
// Noon UTC: the same calendar day in every time zone the tests may run in.
const SEEN: UnseenKeychain = {
  id: 'k2',
  name: 'Loge',
  custodian: LEA,
  tagCodes: ['AGC-00042', 'AGC-00043'],
  lastScanAt: '2030-01-10T12:00:00.000Z',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The server: for each `days`, its keychains (a page of cursor `next` holds `Zinc`). */
function server(byDays: Record<string, UnseenKeychain[]>) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://app.test')
      urls.push(`${url.pathname}${url.search}`)
      if (url.searchParams.get('cursor') === 'next')
        return Response.json({ data: [{ ...NEVER, id: 'k9', name: 'Zinc' }], nextCursor: null })
      const data = byDays[url.searchParams.get('days') ?? ''] ?? []
      return Response.json({ data, nextCursor: data.length > 1 ? 'next' : null })
    }),
  )
  return urls
}

/** The screen with its number of days kept as the route keeps it (in the URL). */
function Report({ initial, onDays = () => undefined }: { initial: number; onDays?: (days: number) => void }) {
  const [days, setDays] = useState(initial)
  return (
    <UnseenReportScreen
      organizationId="o1"
      days={days}
      onDaysChange={(next) => {
        onDays(next)
        setDays(next)
      }}
    />
  )
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    )

describe('the keychains-not-seen report', () => {
  it('lists the keychains with holder, tags and last scan, in English', async () => {
    await useLocale('en')
    const urls = server({ '30': [NEVER, SEEN] })
    renderWithProviders(<Report initial={30} />)
    const table = await screen.findByRole('table', { name: 'Keychains not seen' })
    const [never, seen] = rowsOf(table)
    expect(never).toEqual(['Cave', '—', 'No tag', 'Never'])
    expect(seen!.slice(0, 3)).toEqual(['Loge', 'Léa Dupont', 'AGC-00042, AGC-00043'])
    expect(seen![3]).toMatch(/^10 Jan 2030, \d\d:\d\d$/)
    expect(urls).toEqual(['/api/reports/unseen?days=30'])
    expect(
      (screen.getByRole('spinbutton', { name: 'Not scanned for (days)' }) as HTMLInputElement).value,
    ).toBe('30')
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/unseen/export?days=30',
    )
  })

  it('formats the last scan in French and says never and no tag in French', async () => {
    await useLocale('fr')
    server({ '30': [NEVER, SEEN] })
    renderWithProviders(<Report initial={30} />)
    const table = await screen.findByRole('table', { name: 'Trousseaux non vus' })
    const [never, seen] = rowsOf(table)
    expect(never).toEqual(['Cave', '—', 'Aucun tag', 'Jamais'])
    expect(seen![3]).toMatch(/^10 janv\. 2030, \d\d:\d\d$/)
    expect(screen.getByRole('link', { name: 'Exporter en CSV' }).getAttribute('download')).toBe(
      'keychains-not-seen.csv',
    )
  })

  it('asks the server again with the number of days typed, and the CSV link follows', async () => {
    await useLocale('en')
    const chosen = vi.fn()
    const urls = server({ '30': [NEVER, SEEN], '90': [{ ...SEEN, name: 'Grenier' }] })
    renderWithProviders(<Report initial={30} onDays={chosen} />)
    await screen.findByRole('table', { name: 'Keychains not seen' })
    await act(async () => {
      fireEvent.change(screen.getByRole('spinbutton', { name: 'Not scanned for (days)' }), {
        target: { value: '90' },
      })
    })
    await vi.waitFor(() => expect(screen.getByRole('table').textContent).toContain('Grenier'))
    expect(screen.getByRole('table').textContent).not.toContain('Cave')
    expect(chosen).toHaveBeenLastCalledWith(90)
    expect(urls.at(-1)).toBe('/api/reports/unseen?days=90')
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/unseen/export?days=90',
    )
  })

  it('refuses a number of days out of 1 to 3650 without asking the server, in both languages', async () => {
    await useLocale('en')
    const chosen = vi.fn()
    const urls = server({ '30': [NEVER] })
    const { unmount } = renderWithProviders(<Report initial={30} onDays={chosen} />)
    await screen.findByRole('table')
    const field = screen.getByRole('spinbutton', { name: 'Not scanned for (days)' })
    for (const typed of ['0', '3651', '', '2.5', '-4']) {
      await act(async () => {
        fireEvent.change(field, { target: { value: typed } })
      })
      expect(field.getAttribute('aria-invalid'), typed).toBe('true')
      expect(screen.getByText('A whole number from 1 to 3650.')).toBeTruthy()
    }
    expect(chosen).not.toHaveBeenCalled()
    expect(urls).toEqual(['/api/reports/unseen?days=30'])
    // The list and the CSV link stay those of the last valid number.
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/unseen/export?days=30',
    )
    await act(async () => {
      fireEvent.change(field, { target: { value: '3650' } })
    })
    expect(field.getAttribute('aria-invalid')).toBeNull()
    expect(chosen).toHaveBeenLastCalledWith(3650)
    unmount()

    await useLocale('fr')
    renderWithProviders(<Report initial={30} />)
    const champ = await screen.findByRole('spinbutton', { name: 'Non scanné depuis (jours)' })
    await act(async () => {
      fireEvent.change(champ, { target: { value: '0' } })
    })
    expect(screen.getByText('Un nombre entier de 1 à 3650.')).toBeTruthy()
  })

  it('starts again from the first page when the number of days changes', async () => {
    await useLocale('en')
    const urls = server({ '30': [NEVER, SEEN], '7': [NEVER, SEEN] })
    renderWithProviders(<Report initial={30} />)
    await screen.findByRole('table')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    })
    await vi.waitFor(() => expect(screen.getByRole('table').textContent).toContain('Zinc'))
    expect(urls.at(-1)).toBe('/api/reports/unseen?days=30&cursor=next')
    await act(async () => {
      fireEvent.change(screen.getByRole('spinbutton', { name: 'Not scanned for (days)' }), {
        target: { value: '7' },
      })
    })
    await vi.waitFor(() => expect(screen.getByRole('table').textContent).toContain('Loge'))
    expect(urls.at(-1)).toBe('/api/reports/unseen?days=7')
    expect(screen.queryByRole('button', { name: 'Previous page' })).toBeNull()
  })

  it('says when every keychain was scanned in that time, in both languages', async () => {
    await useLocale('en')
    server({})
    const { unmount } = renderWithProviders(<Report initial={30} />)
    expect(await screen.findByText('Every keychain was scanned in that time.')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
    unmount()
    await useLocale('fr')
    renderWithProviders(<Report initial={30} />)
    expect(await screen.findByText('Chaque trousseau a été scanné dans ce délai.')).toBeTruthy()
  })
})
