import { screen, within } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { formatCalendarDate } from '../../lib/format.ts'
import { KeychainStatusChart } from './KeychainStatusChart.tsx'
import { WeeklyTransfersChart } from './WeeklyTransfersChart.tsx'

beforeAll(async () => {
  await useLocale('en')
})

const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => Array.from(row.children).map((cell) => cell.textContent))

describe('the keychains-by-status chart', () => {
  it('cuts one bar in proportion and gives every figure in a table', () => {
    renderWithProviders(
      <KeychainStatusChart figures={{ noHolder: 5, held: 2, scheduled: 1, out: 0, late: 2 }} />,
    )
    const table = screen.getByRole('table', { name: 'Keychains by status' })
    expect(rowsOf(table)).toEqual([
      ['No holder', '5'],
      ['With a holder', '2'],
      ['Transfer scheduled', '1'],
      ['Out on a transfer', '0'],
      ['Late', '2'],
    ])
    const bar = screen.getByTestId('keychain-status-bar')
    expect(bar.getAttribute('aria-hidden')).toBe('true')
    // An empty status draws nothing; the others share the whole width in proportion, one after the other.
    const parts = Array.from(bar.querySelectorAll('rect')).map((rect) => [
      Number(rect.getAttribute('x')),
      Number(rect.getAttribute('width')),
    ])
    expect(parts).toEqual([
      [0, 50],
      [50, 20],
      [70, 10],
      [80, 20],
    ])
    expect(screen.getByRole('figure', { name: 'Keychains by status' })).toBeTruthy()
  })

  it('draws nothing for an organization without keychains, and says so in figures', () => {
    renderWithProviders(
      <KeychainStatusChart figures={{ noHolder: 0, held: 0, scheduled: 0, out: 0, late: 0 }} />,
    )
    expect(screen.getByTestId('keychain-status-bar').querySelectorAll('rect')).toHaveLength(0)
    expect(rowsOf(screen.getByRole('table')).every(([, count]) => count === '0')).toBe(true)
  })
})

describe('the transfers-per-week chart', () => {
  const weeks = Array.from({ length: 12 }, (_, index) => ({
    week: `2030-01-${String(index + 1).padStart(2, '0')}`,
    count: index === 11 ? 3 : index === 5 ? 6 : 0,
  }))

  it('draws a column per week, the highest at full height, and says the total and this week’s', () => {
    renderWithProviders(<WeeklyTransfersChart weeks={weeks} />)
    expect(screen.getByText('9 in the last 12 weeks, 3 this week.')).toBeTruthy()
    const columns = Array.from(screen.getByTestId('weekly-transfers-bars').querySelectorAll('rect'))
    expect(columns).toHaveLength(12)
    expect(Number(columns[5]!.getAttribute('height'))).toBe(38)
    expect(Number(columns[11]!.getAttribute('height'))).toBe(19)
    expect(Number(columns[0]!.getAttribute('height'))).toBe(0)
  })

  it('gives every week’s figure in a table, its text alternative', () => {
    renderWithProviders(<WeeklyTransfersChart weeks={weeks} />)
    const table = screen.getByRole('table', { name: 'Transfers per week' })
    const rows = rowsOf(table)
    expect(rows).toHaveLength(12)
    expect(rows[5]).toEqual([formatCalendarDate('2030-01-06', 'en'), '6'])
    expect(rows[11]).toEqual([formatCalendarDate('2030-01-12', 'en'), '3'])
  })
})
