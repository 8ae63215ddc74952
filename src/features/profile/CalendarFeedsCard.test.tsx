import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { CalendarFeed } from '../../../contract/calendar.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { CalendarFeedsCard } from './CalendarFeedsCard.tsx'

const kept: CalendarFeed = {
  id: '00000000-0000-4000-8000-0000000000f1',
  scope: 'organization',
  organizationId: '00000000-0000-4000-8000-0000000000d1',
  organizationName: 'Agence',
  createdAt: '2030-01-10T09:00:00.000Z',
  url: null,
}
const URL_MADE = `http://localhost:3000/api/calendar/${'a'.repeat(43)}.ics`

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server with one feed already, that makes a personal one and revokes any. */
function server() {
  const calls: Array<{ method: string; path: string; body: unknown }> = []
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET'
    const path = new URL(url, 'http://localhost').pathname
    calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : null })
    if (method === 'POST') {
      const made = {
        ...kept,
        id: '00000000-0000-4000-8000-0000000000f2',
        scope: 'personal',
        organizationId: null,
        organizationName: null,
        url: URL_MADE,
      }
      return Response.json(made, { status: 201 })
    }
    if (method === 'DELETE') return new Response(null, { status: 204 })
    return Response.json({ data: [kept] })
  })
  vi.stubGlobal('fetch', fetchMock)
  return calls
}

describe('calendar addresses on the profile', () => {
  it('makes a personal address and shows it once, lists the kept ones, and revokes one', async () => {
    const calls = server()
    renderWithProviders(<CalendarFeedsCard canFollowOrganization />)
    await screen.findByText(/All transfers of Agence/)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add my transfers to a calendar' }))
    })
    expect(calls.find((call) => call.method === 'POST')).toEqual({
      method: 'POST',
      path: '/api/calendar-feeds',
      body: { scope: 'personal' },
    })
    expect(((await screen.findByLabelText('My transfers')) as HTMLInputElement).value).toBe(URL_MADE)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Revoke' }))
    })
    await waitFor(() =>
      expect(
        calls.some((call) => call.method === 'DELETE' && call.path === `/api/calendar-feeds/${kept.id}`),
      ).toBe(true),
    )
  })

  it('offers the organization’s address only to those who manage its transfers', async () => {
    server()
    renderWithProviders(<CalendarFeedsCard canFollowOrganization={false} />)
    await screen.findByText(/All transfers of Agence/)
    expect(
      screen.queryByRole('button', { name: "Add all the organization's transfers to a calendar" }),
    ).toBeNull()
  })
})
