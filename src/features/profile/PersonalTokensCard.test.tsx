import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ApiToken } from '../../../contract/api-tokens.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import PersonalTokensCard from './PersonalTokensCard.tsx'

const kept: ApiToken = {
  id: '00000000-0000-4000-8000-0000000000a1',
  name: 'Nightly export',
  kind: 'personal',
  prefix: 'trs_0123456789ab',
  organizationId: null,
  role: null,
  createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin', email: 'ada@example.test' },
  createdAt: '2020-01-10T09:00:00.000Z',
  lastUsedAt: null,
  expiresAt: '2020-01-11T09:00:00.000Z',
}
const SECRET = `trs_fedcba987654_${'s'.repeat(43)}`

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

function server() {
  const calls: Array<{ method: string; path: string; body: Record<string, unknown> | null }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET'
      const path = new URL(url, 'http://localhost').pathname
      calls.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : null })
      if (method === 'POST') {
        const apiToken = {
          ...kept,
          id: '00000000-0000-4000-8000-0000000000a2',
          name: 'CI',
          prefix: 'trs_fedcba987654',
        }
        return Response.json({ apiToken, token: SECRET }, { status: 201 })
      }
      if (method === 'DELETE') return new Response(null, { status: 204 })
      return Response.json({ data: [kept] })
    }),
  )
  return calls
}

describe('personal API tokens on the profile', () => {
  // The confirmation dialog's chunk loads on first use: slow on a busy machine.
  it('lists the tokens, makes one and shows it once with a copy button, and revokes one after asking', {
    timeout: 30_000,
  }, async () => {
    const calls = server()
    const writeText = vi.fn(async () => undefined)
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } })
    renderWithProviders(<PersonalTokensCard />)
    expect(await screen.findByText(/Nightly export/)).toBeTruthy()
    expect(screen.getByText(/never used/)).toBeTruthy()
    expect(screen.getByText(/expired/)).toBeTruthy()

    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: ' CI ' } })
    fireEvent.change(screen.getByLabelText('Expires'), { target: { value: '30' } })
    const before = Date.now()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Make a token' }))
    })
    const post = calls.find((call) => call.method === 'POST')!
    expect(post.path).toBe('/api/api-tokens')
    expect(post.body!.name).toBe('CI')
    // A personal token acts with my roles: the request names none (the server's schema is strict).
    expect(Object.keys(post.body!).sort()).toEqual(['expiresAt', 'name'])
    const days = (Date.parse(String(post.body!.expiresAt)) - before) / 86_400_000
    expect(days).toBeGreaterThanOrEqual(29.99)
    expect(days).toBeLessThan(30.01)
    expect(((await screen.findByLabelText('New token')) as HTMLInputElement).value).toBe(SECRET)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    })
    expect(writeText).toHaveBeenCalledWith(SECRET)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Done' }))
    })
    expect(screen.queryByLabelText('New token')).toBeNull()

    await act(async () => {
      fireEvent.click(screen.getAllByRole('button', { name: 'Revoke' })[0]!)
    })
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false)
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 20_000 })
    expect(dialog.textContent).toContain('Revoke this token?')
    const confirm = [...dialog.querySelectorAll('button')].find((button) => button.textContent === 'Revoke')!
    await act(async () => {
      fireEvent.click(confirm)
    })
    await waitFor(() =>
      expect(
        calls.some((call) => call.method === 'DELETE' && call.path === `/api/api-tokens/${kept.id}`),
      ).toBe(true),
    )
  })
})
