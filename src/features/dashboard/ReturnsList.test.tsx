import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import type { DashboardReturn } from '../../../contract/transfers.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { formatCalendarDate } from '../../lib/format.ts'
import { ReturnsList } from './ReturnsList.tsx'

const item = (n: number): DashboardReturn => ({
  transferId: `00000000-0000-4000-8000-00000000000${n}`,
  keychainId: `00000000-0000-4000-8000-0000000000a${n}`,
  keychainName: `Cave ${n}`,
  holder: { id: 'u1', email: 'lea@example.com', firstName: 'Léa', lastName: 'Dupont' },
  toDate: `2030-01-1${n}`,
  chasedAt: null,
})

beforeAll(async () => {
  await useLocale('en')
})

describe('keychains due back on the dashboard', () => {
  it('links each late keychain to its page, says since when, and leads to the rest', () => {
    renderWithProviders(
      <ReturnsList title="Late" items={[item(1), item(2)]} total={12} all="/en/app/transfers?x" late />,
    )
    const link = screen.getByRole('link', { name: 'Cave 1' })
    expect(link.getAttribute('href')).toBe(`/en/app/keychains/${item(1).keychainId}`)
    expect(
      screen.getByText(`Léa Dupont · due back on ${formatCalendarDate('2030-01-11', 'en')}`),
    ).toBeTruthy()
    expect(screen.getByRole('link', { name: 'See all 12' }).getAttribute('href')).toBe('/en/app/transfers?x')
  })

  it('shows nothing when nothing is due', () => {
    const { container } = renderWithProviders(<ReturnsList title="Late" items={[]} total={0} all="/" late />)
    expect(container.textContent).toBe('')
  })
})
