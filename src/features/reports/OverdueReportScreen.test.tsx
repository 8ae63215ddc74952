import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { OverdueTransfer } from '../../../contract/reports.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { OverdueReportScreen } from './OverdueReportScreen.tsx'

const LEA = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'lea@example.com',
  firstName: 'Léa',
  lastName: 'Dupont',
}
const NAMELESS = {
  id: '22222222-2222-4222-8222-222222222222',
  email: 'x@example.com',
  firstName: '',
  lastName: '',
}

const late = (id: string, keychainName: string, daysLate: number, extra: Partial<OverdueTransfer> = {}) =>
  ({
    id,
    keychainId: `k-${id}`,
    keychainName,
    recipient: LEA,
    fromDate: '2030-01-02',
    toDate: '2030-01-13',
    // Noon UTC: the same calendar day in every time zone the tests may run in.
    pickedUpAt: '2030-01-10T12:00:00.000Z',
    daysLate,
    ...extra,
  }) satisfies OverdueTransfer

afterEach(() => {
  vi.unstubAllGlobals()
})

/** The server: `pages` by cursor (`''` is the first page). */
function server(pages: Record<string, { data: OverdueTransfer[]; nextCursor: string | null }>) {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(String(input), 'http://app.test')
      urls.push(`${url.pathname}${url.search}`)
      const page = pages[url.searchParams.get('cursor') ?? '']
      return page ? Response.json(page) : Response.json({ error: { code: 'not_found' } }, { status: 404 })
    }),
  )
  return urls
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

describe('the overdue transfers report', () => {
  it('lists each late transfer with its holder, due date, days late and pickup, in English', async () => {
    await useLocale('en')
    const urls = server({
      '': {
        data: [
          late('t1', 'Loge', 12),
          late('t2', 'Cave', 1, { recipient: NAMELESS, toDate: '2030-02-01', pickedUpAt: null }),
        ],
        nextCursor: null,
      },
    })
    renderWithProviders(<OverdueReportScreen organizationId="o1" />)
    const table = await screen.findByRole('table', { name: 'Overdue transfers' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Keychain', 'Holder', 'Due back', 'Late by', 'Picked up'])
    const [first, second] = rowsOf(table)
    expect(first!.slice(0, 4)).toEqual(['Loge', 'Léa Dupont', '13 Jan 2030', '12 days'])
    expect(first![4]).toMatch(/^10 Jan 2030, \d\d:\d\d$/)
    // A recipient without names is shown by their address; one day is singular; no pickup time is a dash.
    expect(second).toEqual(['Cave', 'x@example.com', '1 Feb 2030', '1 day', '—'])
    expect(urls).toEqual(['/api/reports/overdue'])
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/overdue/export',
    )
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull()
  })

  it('formats the dates and days in French', async () => {
    await useLocale('fr')
    server({ '': { data: [late('t1', 'Loge', 12), late('t2', 'Cave', 1)], nextCursor: null } })
    renderWithProviders(<OverdueReportScreen organizationId="o1" />)
    expect(screen.getByRole('status').textContent).toBe('Chargement du rapport…')
    const table = await screen.findByRole('table', { name: 'Transferts en retard' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Trousseau', 'Détenteur', 'À rendre le', 'Retard', 'Retiré'])
    const [first, second] = rowsOf(table)
    expect(first!.slice(0, 4)).toEqual(['Loge', 'Léa Dupont', '13 janv. 2030', '12 jours'])
    expect(first![4]).toMatch(/^10 janv\. 2030, \d\d:\d\d$/)
    expect(second![3]).toBe('1 jour')
    expect(screen.getByRole('link', { name: 'Exporter en CSV' }).getAttribute('download')).toBe(
      'overdue-transfers.csv',
    )
  })

  it('pages forward and back with the cursor the server gave', async () => {
    await useLocale('en')
    const urls = server({
      '': { data: [late('t1', 'Loge', 12)], nextCursor: 'page-2' },
      'page-2': { data: [late('t2', 'Cave', 3)], nextCursor: null },
    })
    renderWithProviders(<OverdueReportScreen organizationId="o1" />)
    await screen.findByRole('table', { name: 'Overdue transfers' })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    })
    await vi.waitFor(() => expect(screen.getByRole('table').textContent).toContain('Cave'))
    expect(screen.getByRole('table').textContent).not.toContain('Loge')
    expect(urls).toContain('/api/reports/overdue?cursor=page-2')
    expect(screen.queryByRole('button', { name: 'Next page' })).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
    })
    await vi.waitFor(() => expect(screen.getByRole('table').textContent).toContain('Loge'))
    // The CSV is the whole view, not one page.
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      '/api/reports/overdue/export',
    )
  })

  it('says when nothing is overdue, in both languages', async () => {
    await useLocale('en')
    server({ '': { data: [], nextCursor: null } })
    const { unmount } = renderWithProviders(<OverdueReportScreen organizationId="o1" />)
    expect(await screen.findByText('No transfer is overdue.')).toBeTruthy()
    expect(screen.queryByRole('table')).toBeNull()
    unmount()
    await useLocale('fr')
    renderWithProviders(<OverdueReportScreen organizationId="o1" />)
    expect(await screen.findByText('Aucun transfert en retard.')).toBeTruthy()
  })

  it('says the report could not be loaded, with a retry that asks again', async () => {
    await useLocale('fr')
    let calls = 0
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls += 1
        return calls === 1
          ? Response.json({ error: { code: 'forbidden', message: 'No.' } }, { status: 403 })
          : Response.json({ data: [late('t1', 'Loge', 2)], nextCursor: null })
      }),
    )
    renderWithProviders(<OverdueReportScreen organizationId="o1" />)
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toContain('Le rapport n’a pas pu être chargé.')
    await act(async () => {
      fireEvent.click(within(alert).getByRole('button', { name: 'Réessayer' }))
    })
    expect(await screen.findByRole('table', { name: 'Transferts en retard' })).toBeTruthy()
  })
})
