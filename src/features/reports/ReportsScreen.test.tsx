import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { ReportScreen } from './ReportScreen.tsx'
import { ReportsScreen } from './ReportsScreen.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const entries = () =>
  within(screen.getByRole('list'))
    .getAllByRole('listitem')
    .map((item) => {
      const link = within(item).getByRole('link')
      return [link.textContent, link.getAttribute('href')]
    })

describe('the list of reports', () => {
  it('links to the four reports in French, at the root', async () => {
    await useLocale('fr')
    await renderWithRouter(<ReportsScreen />)
    expect(screen.getByRole('heading', { level: 1, name: 'Rapports' })).toBeTruthy()
    expect(entries()).toEqual([
      ['Qui détient quoi', '/app/reports/holdings'],
      ['Transferts en retard', '/app/reports/overdue'],
      ['Trousseaux non vus', '/app/reports/unseen'],
      ['Activité par mois', '/app/reports/monthly'],
    ])
  })

  it('links to the four reports in English, under /en, each with what it is for', async () => {
    await useLocale('en')
    await renderWithRouter(<ReportsScreen />)
    expect(screen.getByRole('heading', { level: 1, name: 'Reports' })).toBeTruthy()
    expect(entries()).toEqual([
      ['Who holds what', '/en/app/reports/holdings'],
      ['Overdue transfers', '/en/app/reports/overdue'],
      ['Keychains not seen', '/en/app/reports/unseen'],
      ['Activity per month', '/en/app/reports/monthly'],
    ])
    expect(screen.getByText(/print it when they leave/)).toBeTruthy()
  })
})

describe('the reports route', () => {
  function server() {
    const urls: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        urls.push(String(input))
        return Response.json({ data: [], nextCursor: null })
      }),
    )
    return urls
  }

  it('opens the unseen report at 30 days when the address names none, and keeps a new number in the address', async () => {
    await useLocale('en')
    const urls = server()
    const change = vi.fn()
    renderWithProviders(
      <ReportScreen organizationId="o1" report="unseen" search={{}} onSearchChange={change} />,
    )
    await screen.findByText('Every keychain was scanned in that time.')
    expect(urls).toEqual(['/api/reports/unseen?days=30'])
    await act(async () => {
      fireEvent.change(screen.getByRole('spinbutton', { name: 'Not scanned for (days)' }), {
        target: { value: '14' },
      })
    })
    // Replacing the address entry: each keystroke is not a step back in the history.
    expect(change).toHaveBeenLastCalledWith({ days: 14 }, true)
  })

  it('reads the number of days from the address', async () => {
    await useLocale('en')
    const urls = server()
    renderWithProviders(
      <ReportScreen
        organizationId="o1"
        report="unseen"
        search={{ days: 7 }}
        onSearchChange={() => undefined}
      />,
    )
    await screen.findByText('Every keychain was scanned in that time.')
    expect(urls).toEqual(['/api/reports/unseen?days=7'])
  })

  it('says an unknown report does not exist', async () => {
    await useLocale('fr')
    await renderWithRouter(
      <ReportScreen organizationId="o1" report="salaries" search={{}} onSearchChange={() => undefined} />,
    )
    expect(screen.getByRole('heading', { name: 'Page introuvable' })).toBeTruthy()
  })
})
