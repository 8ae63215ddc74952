import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { StocktakesDue } from './StocktakesDue.tsx'

const place = (name: string) => ({ id: `${name}-id`, name, kind: 'BOARD' as const })

function answer(data: unknown[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ data })),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('stocktakes due, on the dashboard', () => {
  it('names each place due or overdue, on its calendar day, and leads to the stocktakes', async () => {
    await useLocale('en')
    answer([
      { place: place('Board A'), dueOn: '2030-01-10', overdue: true },
      { place: place('Cabinet 2'), dueOn: '2030-02-01', overdue: false },
    ])
    await renderWithRouter(<StocktakesDue organizationId="o1" />)
    expect(await screen.findByText('Board A: overdue since 10 Jan 2030')).toBeTruthy()
    expect(screen.getByText('Cabinet 2: due on 1 Feb 2030')).toBeTruthy()
    expect(screen.getByRole('link', { name: 'Stocktakes' }).getAttribute('href')).toBe('/en/app/stocktakes')
  })

  it('shows nothing when no stocktake is due', async () => {
    await useLocale('en')
    answer([])
    const { container } = await renderWithRouter(<StocktakesDue organizationId="o2" />)
    await vi.waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled())
    expect(container.textContent).toBe('')
  })
})
