import { act, fireEvent, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { MonthActivity } from '../../../contract/reports.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import type { MonthRange } from '../../api/reports.ts'
import { MonthlyReportScreen } from './MonthlyReportScreen.tsx'

const JANUARY: MonthActivity = {
  month: '2030-01',
  scans: 12345,
  entries: 1500,
  byKind: {
    'transfer.authorized': 4,
    'transfer.picked_up': 3,
    'transfer.returned': 2,
    'transfer.cancelled': 1,
    'keychain.created': 1200,
    'key.added': 7,
  },
}
// A month where nothing of those kinds happened: the server leaves them out.
const FEBRUARY: MonthActivity = { month: '2030-02', scans: 0, entries: 0, byKind: {} }

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The server: the months asked for (the last two when none are), each from the table above or empty. */
function server() {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://app.test')
      urls.push(`${url.pathname}${url.search}`)
      const from = url.searchParams.get('from') ?? '2030-01'
      const to = url.searchParams.get('to') ?? '2030-02'
      const months = [JANUARY, FEBRUARY, { ...FEBRUARY, month: '2030-03' }].filter(
        (month) => month.month >= from && month.month <= to,
      )
      return Response.json({ from, to, months })
    }),
  )
  return urls
}

/** The screen with its range kept as the route keeps it (in the URL). */
function Report({ initial = {} }: { initial?: MonthRange }) {
  const [range, setRange] = useState<MonthRange>(initial)
  return <MonthlyReportScreen organizationId="o1" range={range} onRangeChange={setRange} />
}

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [
      row.querySelector('th')?.textContent,
      ...within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ])

describe('the activity per month report', () => {
  it('shows each month by name with its scans and entries by kind, numbers in English', async () => {
    await useLocale('en')
    const urls = server()
    renderWithProviders(<Report />)
    const table = await screen.findByRole('table', { name: 'Activity per month' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual([
      'Month',
      'Scans',
      'Transfers authorized',
      'Pickups',
      'Returns',
      'Cancellations',
      'Keychains created',
      'Keys added',
      'All entries',
    ])
    expect(rowsOf(table)).toEqual([
      ['January 2030', '12,345', '4', '3', '2', '1', '1,200', '7', '1,500'],
      ['February 2030', '0', '0', '0', '0', '0', '0', '0', '0'],
    ])
    // Without a range the server picks the last twelve months; the fields show which it picked.
    expect(urls).toEqual(['/api/reports/monthly'])
    expect((screen.getByLabelText('First month') as HTMLInputElement).value).toBe('2030-01')
    expect((screen.getByLabelText('Last month') as HTMLInputElement).value).toBe('2030-02')
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/monthly/export',
    )
  })

  it('names the months and groups the thousands in French', async () => {
    await useLocale('fr')
    server()
    renderWithProviders(<Report />)
    const table = await screen.findByRole('table', { name: 'Activité par mois' })
    const [january, february] = rowsOf(table)
    // French groups thousands with a narrow no-break space.
    expect(january).toEqual([
      'janvier 2030',
      '12\u202f345',
      '4',
      '3',
      '2',
      '1',
      '1\u202f200',
      '7',
      '1\u202f500',
    ])
    expect(february![0]).toBe('février 2030')
    expect(within(table).getAllByRole('columnheader')[0]!.textContent).toBe('Mois')
    expect(screen.getByRole('link', { name: 'Exporter en CSV' }).getAttribute('download')).toBe(
      'activity-by-month.csv',
    )
  })

  it('asks for the months chosen, keeping the other end where it is shown, and the CSV link carries the same range', async () => {
    await useLocale('en')
    const urls = server()
    renderWithProviders(<Report />)
    await screen.findByRole('table', { name: 'Activity per month' })
    // The server showed 2030-01 to 2030-02; a new first month keeps that last month (alone, the server would
    // take 36 months from it).
    await act(async () => {
      fireEvent.change(screen.getByLabelText('First month'), { target: { value: '2030-02' } })
    })
    await vi.waitFor(() => expect(urls.at(-1)).toBe('/api/reports/monthly?from=2030-02&to=2030-02'))
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Last month'), { target: { value: '2030-03' } })
    })
    await vi.waitFor(() => expect(urls.at(-1)).toBe('/api/reports/monthly?from=2030-02&to=2030-03'))
    await vi.waitFor(() =>
      expect(rowsOf(screen.getByRole('table')).map((row) => row[0])).toEqual(['February 2030', 'March 2030']),
    )
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/monthly/export?from=2030-02&to=2030-03',
    )
  })

  it('says when the last month comes before the first or the range is over 36 months, without asking', async () => {
    await useLocale('en')
    const urls = server()
    renderWithProviders(<Report initial={{ from: '2030-01', to: '2030-02' }} />)
    await screen.findByRole('table', { name: 'Activity per month' })
    const last = screen.getByLabelText('Last month')
    await act(async () => {
      fireEvent.change(last, { target: { value: '2029-12' } })
    })
    expect(last.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByText('The last month comes before the first.')).toBeTruthy()
    // What was typed stays in the field; the report and its CSV stay those of the last valid range.
    expect((last as HTMLInputElement).value).toBe('2029-12')
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/monthly/export?from=2030-01&to=2030-02',
    )
    await act(async () => {
      fireEvent.change(last, { target: { value: '2033-01' } })
    })
    expect(screen.getByText('At most 36 months at a time.')).toBeTruthy()
    expect(urls).toEqual(['/api/reports/monthly?from=2030-01&to=2030-02'])
    // 36 months exactly is a range.
    await act(async () => {
      fireEvent.change(last, { target: { value: '2032-12' } })
    })
    expect(last.getAttribute('aria-invalid')).toBeNull()
    await vi.waitFor(() => expect(urls.at(-1)).toBe('/api/reports/monthly?from=2030-01&to=2032-12'))
  })

  it('says what is wrong with the range in French', async () => {
    await useLocale('fr')
    server()
    renderWithProviders(<Report initial={{ from: '2030-01', to: '2030-02' }} />)
    await screen.findByRole('table', { name: 'Activité par mois' })
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Premier mois'), { target: { value: '2030-03' } })
    })
    expect(screen.getByText('Le dernier mois précède le premier.')).toBeTruthy()
    await act(async () => {
      fireEvent.change(screen.getByLabelText('Premier mois'), { target: { value: '2026-01' } })
    })
    expect(screen.getByText('36 mois au plus à la fois.')).toBeTruthy()
  })

  it('starts from the range in the address', async () => {
    await useLocale('en')
    const urls = server()
    renderWithProviders(<Report initial={{ from: '2030-01', to: '2030-01' }} />)
    const table = await screen.findByRole('table', { name: 'Activity per month' })
    expect(rowsOf(table).map((row) => row[0])).toEqual(['January 2030'])
    expect(urls).toEqual(['/api/reports/monthly?from=2030-01&to=2030-01'])
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/monthly/export?from=2030-01&to=2030-01',
    )
  })
})
