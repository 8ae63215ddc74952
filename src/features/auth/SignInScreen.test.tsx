import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { OIDC_FAILURES } from '../../../contract/identity.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'

/** The test helper that sets the catalog's language (not a React hook, whatever its name). */
const switchLocale = useLocale

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

  it('offers the organization’s own sign-in when it covers the typed address', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.startsWith('/api/auth/oidc/coverage?email=ada%40campus.example')
        ? answer(200, { organizationName: 'Campus' })
        : answer(404, {
            error: { code: 'not_found', message: 'No organization sign-in covers this address.' },
          }),
    )
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<SignInScreen locale="en" onSignedIn={() => undefined} />)
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'someone@elsewhere.example' } })
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    expect(screen.queryByRole('link', { name: /Continue with/ })).toBeNull()
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'Ada@Campus.example' } })
    const link = await screen.findByRole('link', { name: 'Continue with Campus' })
    expect(link.getAttribute('href')).toBe('/api/auth/oidc/start?email=ada%40campus.example&locale=en')
    expect(screen.getByText('Campus signs you in with its own account.')).toBeTruthy()
  })

  it('turns a refused code request (sso_required) into the organization’s sign-in', async () => {
    const fetchMock = vi.fn(async (url: string) =>
      url.endsWith('/email-tokens')
        ? answer(409, {
            error: { code: 'sso_required', message: 'Campus signs you in with its own account.' },
          })
        : answer(200, { organizationName: 'Campus' }),
    )
    vi.stubGlobal('fetch', fetchMock)
    renderWithProviders(<SignInScreen locale="en" onSignedIn={() => undefined} />)
    await submitEmail('ada@campus.example')
    expect(
      (await screen.findByRole('link', { name: 'Continue with Campus' })).getAttribute('href'),
    ).toContain('/api/auth/oidc/start?email=ada%40campus.example')
    expect(screen.queryByText(/A link and a code were sent/)).toBeNull()
  })

  it('says why the organization’s sign-in sent the person back', async () => {
    vi.stubGlobal('fetch', vi.fn())
    window.history.replaceState(null, '', '/sign-in?sso=audience')
    try {
      renderWithProviders(<SignInScreen locale="en" onSignedIn={() => undefined} />)
      expect((await screen.findByRole('alert')).textContent).toBe(
        'The sign-in answer was meant for another application: ask your administrator to check the client id.',
      )
    } finally {
      window.history.replaceState(null, '', '/')
    }
  })

  it('has its own words for every reason, in both languages', async () => {
    vi.stubGlobal('fetch', vi.fn())
    const reasons = OIDC_FAILURES
    try {
      for (const locale of ['en', 'fr'] as const) {
        await switchLocale(locale)
        const said = new Set<string>()
        for (const reason of reasons) {
          window.history.replaceState(null, '', `/sign-in?sso=${reason}`)
          const { unmount } = renderWithProviders(
            <SignInScreen locale={locale} onSignedIn={() => undefined} />,
          )
          said.add((await screen.findByRole('alert')).textContent ?? '')
          unmount()
        }
        expect(said.size).toBe(reasons.length)
        expect([...said].every((text) => text.length > 20)).toBe(true)
      }
      await switchLocale('fr')
      window.history.replaceState(null, '', '/sign-in?sso=issuer')
      renderWithProviders(<SignInScreen locale="fr" onSignedIn={() => undefined} />)
      expect((await screen.findByRole('alert')).textContent).toBe(
        'La connexion de votre organisation a répondu sous un autre émetteur que celui configuré : demandez à votre administrateur de le vérifier.',
      )
    } finally {
      window.history.replaceState(null, '', '/')
      await switchLocale('en')
    }
  })
})
