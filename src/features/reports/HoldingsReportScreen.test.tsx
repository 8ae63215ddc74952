import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { HoldingsPage, OpenTransfer } from '../../../contract/reports.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { HoldingsReportScreen } from './HoldingsReportScreen.tsx'

const LEA = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'lea@example.com',
  firstName: 'Léa',
  lastName: 'Dupont',
  role: 'MEMBER' as const,
  status: 'ACTIVE' as const,
  joinedAt: '2029-01-01T00:00:00.000Z',
}

const page = (names: string[], nextCursor: string | null): HoldingsPage => ({
  person: LEA,
  data: names.map((name, index) => ({
    id: `k-${name}`,
    name,
    since: index === 0 ? '2030-01-10T09:00:00.000Z' : null,
    keys:
      index === 0
        ? [
            { name: 'Porte', type: 'TAG', tagCode: 'AGC-00042' },
            { name: 'Grille', type: 'KEY', tagCode: null },
          ]
        : [],
    dueBack: index === 1 ? { transferId: 't1', toDate: '2030-01-13', overdue: true } : null,
  })),
  nextCursor,
})

const transfer: OpenTransfer = {
  id: 't2',
  keychainId: 'k-loge',
  keychainName: 'Loge',
  fromDate: '2030-01-22',
  toDate: '2030-01-24',
  status: 'SCHEDULED',
  expired: false,
}

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server with two pages of keychains held by Léa and one open transfer. */
function server() {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = String(input)
      urls.push(url)
      if (url.includes('/users')) return Response.json({ data: [LEA] })
      if (url.includes('/reports/holdings/transfers'))
        return Response.json({ data: [transfer], nextCursor: null })
      if (url.includes('cursor=second')) return Response.json(page(['Zinc'], null))
      return Response.json(page(['Atelier', 'Prêt'], 'second'))
    }),
  )
  return urls
}

describe('the departure report', () => {
  it('lists what the person holds with their keys and what is due back, their open transfers, and exports the same', async () => {
    const urls = server()
    renderWithProviders(
      <HoldingsReportScreen organizationId="o1" person={LEA.id} onPersonChange={() => undefined} />,
    )
    const held = await screen.findByRole('table', { name: 'Keychains held' })
    const rows = within(held)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toContain('Atelier')
    expect(rows[0]).toContain('Porte (AGC-00042)')
    expect(rows[0]).toContain('Grille (Key)')
    expect(rows[1]).toContain('Prêt')
    expect(rows[1]).toContain('overdue')
    expect(screen.getByRole('heading', { name: 'What Léa Dupont holds' })).toBeTruthy()
    const open = screen.getByRole('table', { name: 'Open transfers' })
    expect(within(open).getAllByRole('row')[1]!.textContent).toContain('Loge')
    expect(within(open).getAllByRole('row')[1]!.textContent).toContain('Scheduled')
    expect(urls.some((url) => url.includes(`/api/reports/holdings?person=${LEA.id}`))).toBe(true)
    expect(screen.getByRole('link', { name: 'Export as CSV' }).getAttribute('href')).toBe(
      `/api/reports/holdings/export?person=${LEA.id}`,
    )
  })

  it('loads every page before printing, so the paper lists everything', async () => {
    server()
    const print = vi.fn()
    vi.stubGlobal('print', print)
    renderWithProviders(
      <HoldingsReportScreen organizationId="o1" person={LEA.id} onPersonChange={() => undefined} />,
    )
    await screen.findByRole('table', { name: 'Keychains held' })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Print' }))
    })
    await vi.waitFor(() => expect(print).toHaveBeenCalledTimes(1))
    const held = screen.getByRole('table', { name: 'Keychains held' })
    expect(within(held).getAllByRole('row')).toHaveLength(4)
    expect(held.textContent).toContain('Zinc')
  })

  it('asks for a person first, among the members', async () => {
    server()
    const chosen = vi.fn()
    renderWithProviders(
      <HoldingsReportScreen organizationId="o1" person={undefined} onPersonChange={chosen} />,
    )
    const picker = await screen.findByRole('combobox', { name: 'Person' })
    await vi.waitFor(() => expect(within(picker).getAllByRole('option')).toHaveLength(2))
    fireEvent.change(picker, { target: { value: LEA.id } })
    expect(chosen).toHaveBeenCalledWith(LEA.id)
    expect(screen.queryByRole('table')).toBeNull()
  })
})
