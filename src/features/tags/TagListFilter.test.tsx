import { fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { TagListScreen } from './TagListScreen.tsx'

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server with no tag matching anything; the asked URLs are kept. */
function emptyServer() {
  const urls: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(String(url))
      return Response.json({ data: [], nextCursor: null })
    }),
  )
  return urls
}

describe('the tags list’s filter', () => {
  it('asks the server for free or used tags with the search, and clears both from an empty result', async () => {
    const urls = emptyServer()
    await renderWithRouter(<TagListScreen organizationId="o1" />)
    await screen.findByText('No tags yet: they are created when a tag order is paid.')
    fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'used' } })
    await waitFor(() => expect(urls.at(-1)).toMatch(/\/api\/tags\?use=used$/))
    fireEvent.change(screen.getByLabelText('Search by code or name'), { target: { value: 'AGC-00042' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    await waitFor(() => expect(urls.at(-1)).toMatch(/\/api\/tags\?q=AGC-00042&use=used$/))
    fireEvent.click(await screen.findByRole('button', { name: 'Clear the search' }))
    await waitFor(() => expect(urls.at(-1)).toMatch(/\/api\/tags$/))
    expect((screen.getByLabelText('Show') as HTMLSelectElement).value).toBe('')
    expect((screen.getByLabelText('Search by code or name') as HTMLInputElement).value).toBe('')
  })
})
