import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { LeaversCard } from './LeaversCard.tsx'

const person = (firstName: string, lastName: string) => ({
  id: `${firstName}-id`,
  email: `${firstName.toLowerCase()}@example.test`,
  firstName,
  lastName,
})

function answer(data: unknown[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ data })),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('who left with keys, on the dashboard', () => {
  it('names each leaver with what they still have, leading to the report of what they hold', async () => {
    await useLocale('en')
    answer([
      { person: person('Marc', 'Martin'), keychains: 3, transfers: 1 },
      { person: person('Lea', 'Roux'), keychains: 1, transfers: 0 },
    ])
    await renderWithRouter(<LeaversCard organizationId="o1" />)
    const marc = await screen.findByRole('link', { name: 'Marc Martin' })
    expect(marc.getAttribute('href')).toBe('/en/app/reports/holdings?person=Marc-id')
    expect(marc.parentElement!.textContent).toBe('Marc Martinleft with 3 keychains · 1 transfer open')
    expect(screen.getByRole('link', { name: 'Lea Roux' }).parentElement!.textContent).toBe(
      'Lea Rouxleft with 1 keychain',
    )
    expect(vi.mocked(fetch).mock.calls[0]![0]).toContain('/api/reports/leavers')
  })

  it('says it in French', async () => {
    await useLocale('fr')
    answer([{ person: person('Marc', 'Martin'), keychains: 2, transfers: 2 }])
    await renderWithRouter(<LeaversCard organizationId="o3" />)
    const marc = await screen.findByRole('link', { name: 'Marc Martin' })
    expect(marc.parentElement!.textContent).toBe(
      'Marc Martina quitté l’organisation avec 2 trousseaux · 2 transferts en cours',
    )
    expect(screen.getByRole('heading').textContent).toBe('Départs avec des clés')
  })

  it('shows nothing when no one left with keys', async () => {
    await useLocale('en')
    answer([])
    const { container } = await renderWithRouter(<LeaversCard organizationId="o2" />)
    await vi.waitFor(() => expect(vi.mocked(fetch)).toHaveBeenCalled())
    expect(container.textContent).toBe('')
  })
})
