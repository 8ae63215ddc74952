import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../tests/render.tsx'
import { SignInScreen } from './SignInScreen.tsx'

const profile = {
  id: 'u1',
  email: 'ada@example.com',
  firstName: '',
  lastName: '',
  phoneNumber: '',
  locale: 'en',
  reminderMails: true,
  theme: 'system',
  isOperator: false,
  selectedOrganizationId: null,
  permissions: [],
}

function answer(status: number, body: unknown = {}) {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  })
}

afterEach(() => {
  vi.unstubAllGlobals()
})

async function submitEmail(value: string) {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value } })
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Receive a sign-in link' }))
  })
}

describe('sign-in screen', () => {
  it('refuses an invalid address without calling the server', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<SignInScreen locale="en" onSignedIn={() => undefined} />)
    await submitEmail('not-an-address')
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('asks for the code once the mail is sent, enforces 6 digits, then signs in', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/email-tokens') ? answer(202, { status: 'sent' }) : answer(201, profile),
    )
    vi.stubGlobal('fetch', fetchMock)
    const onSignedIn = vi.fn()
    renderWithProviders(<SignInScreen locale="en" onSignedIn={onSignedIn} />)
    await submitEmail('  Ada@Example.com ')
    expect(await screen.findByText(/A link and a code were sent to/)).toBeTruthy()
    const [, sent] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(JSON.parse(sent.body as string)).toEqual({ email: 'ada@example.com', locale: 'en' })

    const code = screen.getByLabelText('6-digit code')
    fireEvent.change(code, { target: { value: '12a3' } })
    expect((code as HTMLInputElement).value).toBe('123')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    })
    expect(await screen.findByText('The code must be 6 digits.')).toBeTruthy()
    expect(fetchMock).toHaveBeenCalledTimes(1)

    fireEvent.change(code, { target: { value: '123456' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    })
    await waitFor(() => expect(onSignedIn).toHaveBeenCalled())
    const [url, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit]
    expect(url).toBe('/api/sessions')
    expect(JSON.parse(init.body as string)).toEqual({ email: 'ada@example.com', code: '123456' })
  })
})
