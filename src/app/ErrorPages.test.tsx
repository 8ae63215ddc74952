import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, useLocale } from '../../tests/render.tsx'
import { ApiError } from '../lib/api.ts'
import { ErrorPage, fatalErrorOf, NotFoundPage } from './ErrorPages.tsx'

afterEach(async () => {
  vi.unstubAllGlobals()
  await useLocale('en')
})

describe('error pages', () => {
  it('titles the 404 page in each language', async () => {
    const english = renderWithProviders(<NotFoundPage />)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Page Not Found')
    english.unmount()
    await useLocale('fr')
    renderWithProviders(<NotFoundPage />)
    expect(screen.getByRole('heading', { level: 1, name: 'Page introuvable' })).toBeTruthy()
  })

  it('shows 500 and Internal Server Error by default, or the given status', () => {
    renderWithProviders(<ErrorPage error={{}} />)
    expect(screen.getByText('500')).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Internal Server Error' })).toBeTruthy()
    renderWithProviders(
      <ErrorPage error={{ statusCode: 503, statusMessage: 'Maintenance', description: 'Back soon' }} />,
    )
    expect(screen.getByText('503')).toBeTruthy()
    expect(screen.getByText('Back soon')).toBeTruthy()
  })

  it('keeps the status of an API error and names it in the reader language', () => {
    renderWithProviders(<ErrorPage error={fatalErrorOf(new ApiError(403, 'forbidden', 'Forbidden'))} />)
    expect(screen.getByText('403')).toBeTruthy()
    expect(screen.getByRole('heading', { name: 'Access denied' })).toBeTruthy()
    expect(fatalErrorOf(new Error('boom'))).toEqual({})
  })

  it('renders nothing for a crawler', () => {
    vi.stubGlobal('navigator', { userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)' })
    const { container } = renderWithProviders(<NotFoundPage />)
    expect(container.innerHTML).toBe('')
    const other = renderWithProviders(<ErrorPage error={{}} />)
    expect(other.container.innerHTML).toBe('')
  })
})
