import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { IdentitySettings } from '../../../contract/identity.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import IdentityProviderCard from './IdentityProviderCard.tsx'

const ORGANIZATION = '00000000-0000-4000-8000-0000000000d1'
const BASE = `/api/organizations/${ORGANIZATION}`

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the organization’s own sign-in, on its page', () => {
  it('shows the redirect URI, saves the provider, and adds and confirms a domain', {
    timeout: 30_000,
  }, async () => {
    let settings: IdentitySettings = {
      provider: null,
      redirectUri: 'https://keys.example.com/api/auth/oidc/callback',
      domainProof: 'confirm',
      domains: [],
    }
    const sent: Array<[string, string, unknown]> = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        const path = new URL(url, 'http://localhost').pathname
        const method = init?.method ?? 'GET'
        const body = init?.body ? JSON.parse(String(init.body)) : undefined
        sent.push([method, path, body])
        if (method === 'PUT') {
          settings = {
            ...settings,
            provider: {
              issuer: body.issuer,
              clientId: body.clientId,
              defaultRole: body.defaultRole,
              updatedAt: '2030-01-10T09:00:00.000Z',
            },
          }
        }
        if (method === 'POST' && path.endsWith('/identity-domains')) {
          settings = {
            ...settings,
            domains: [
              {
                domain: body.domain,
                proof: null,
                txtName: `_trousseau.${body.domain}`,
                txtValue: 'trousseau-verification=abc',
                verifiedAt: null,
              },
            ],
          }
        }
        if (method === 'POST' && path.endsWith('/verification')) {
          settings = {
            ...settings,
            domains: settings.domains.map((each) => ({
              ...each,
              proof: 'CONFIRMED' as const,
              verifiedAt: '2030-01-10T10:00:00.000Z',
            })),
          }
        }
        return Response.json(settings)
      }),
    )
    renderWithProviders(<IdentityProviderCard organizationId={ORGANIZATION} />)
    expect(await screen.findByText('https://keys.example.com/api/auth/oidc/callback')).toBeTruthy()
    expect(screen.getByText('No domain yet: people sign in by e-mail code.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Issuer'), {
      target: { value: 'https://login.example.com/tenant/v2.0' },
    })
    fireEvent.change(screen.getByLabelText('Client id'), { target: { value: 'abc' } })
    fireEvent.change(screen.getByLabelText('Client secret'), { target: { value: 's3cret' } })
    fireEvent.change(screen.getByLabelText('Role of people who first sign in'), {
      target: { value: 'CONTACT' },
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save the provider' }))
    })
    expect(sent).toContainEqual([
      'PUT',
      `${BASE}/identity-provider`,
      {
        issuer: 'https://login.example.com/tenant/v2.0',
        clientId: 'abc',
        clientSecret: 's3cret',
        defaultRole: 'CONTACT',
      },
    ])
    expect(await screen.findByText('Leave empty to keep the one stored (it is never shown).')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Domain'), { target: { value: 'campus.example' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add the domain' }))
    })
    expect((await screen.findByText(/Pending: publish the DNS record TXT/)).textContent).toBe(
      'Pending: publish the DNS record TXT _trousseau.campus.example = trousseau-verification=abc',
    )
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Confirm it is ours' }))
    })
    expect(await screen.findByText(/Confirmed by an administrator on .*, without DNS proof/)).toBeTruthy()
    expect(sent).toContainEqual(['POST', `${BASE}/identity-domains/campus.example/verification`, undefined])
  })
})
