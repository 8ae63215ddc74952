import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderWithRouter, useLocale } from '../../tests/render.tsx'
import { ApiError } from '../lib/api.ts'
import { ErrorState } from './States.tsx'

beforeAll(async () => {
  await useLocale('en')
})

describe('a load that failed', () => {
  it('shows the not-found view, without a retry, when the server said 404', async () => {
    await renderWithRouter(
      <ErrorState
        message="The keychain could not be loaded."
        onRetry={() => undefined}
        error={new ApiError(404, 'not_found', 'No such keychain.')}
      />,
    )
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(screen.getByRole('link', { name: 'Back to the dashboard' }).getAttribute('href')).toBe('/en/app')
  })

  it.each([
    ['a server error', new ApiError(500, 'internal', 'Boom')],
    ['no network', new ApiError(0, 'network', 'offline')],
  ])('offers a retry after %s', async (_, error) => {
    await renderWithRouter(
      <ErrorState message="The keychain could not be loaded." onRetry={() => undefined} error={error} />,
    )
    expect(await screen.findByText('The keychain could not be loaded.')).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy()
  })
})
