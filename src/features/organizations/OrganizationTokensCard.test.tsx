import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { ApiToken } from '../../../contract/api-tokens.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import OrganizationTokensCard from './OrganizationTokensCard.tsx'

const ORGANIZATION = '00000000-0000-4000-8000-0000000000d1'
const kept: ApiToken = {
  id: '00000000-0000-4000-8000-0000000000b1',
  name: 'Front desk',
  kind: 'organization',
  prefix: 'trs_0123456789ab',
  organizationId: ORGANIZATION,
  role: 'MANAGER',
  createdBy: { id: 'u1', firstName: 'Ada', lastName: 'Admin', email: 'ada@example.test' },
  createdAt: '2030-01-10T09:00:00.000Z',
  lastUsedAt: '2030-01-12T09:00:00.000Z',
  expiresAt: null,
}

beforeAll(async () => {
  await useLocale('fr')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('organization API tokens on the organization page', () => {
  it('lists each token with its role and maker, and makes one with the role chosen', {
    timeout: 30_000,
  }, async () => {
    const posts: unknown[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        expect(new URL(url, 'http://localhost').pathname).toBe(
          `/api/organizations/${ORGANIZATION}/api-tokens`,
        )
        if (init?.method === 'POST') {
          posts.push(JSON.parse(String(init.body)))
          return Response.json(
            { apiToken: kept, token: `trs_0123456789ab_${'x'.repeat(43)}` },
            { status: 201 },
          )
        }
        return Response.json({ data: [kept] })
      }),
    )
    renderWithProviders(<OrganizationTokensCard organizationId={ORGANIZATION} />)
    const name = await screen.findByText(/Front desk/)
    expect(name.textContent).toMatch(/trs_0123456789ab… · Gestionnaire/)
    expect(screen.getByText(/Ada Admin/)).toBeTruthy()
    expect(screen.getByText(/n’expire pas/)).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Nom du jeton'), { target: { value: 'Export' } })
    fireEvent.change(screen.getByLabelText('Agit comme'), { target: { value: 'MEMBER' } })
    fireEvent.change(screen.getByLabelText('Expiration'), { target: { value: '0' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Créer un jeton' }))
    })
    expect(posts).toEqual([{ name: 'Export', role: 'MEMBER', expiresAt: null, kind: 'organization' }])
    expect(((await screen.findByLabelText('Nouveau jeton')) as HTMLInputElement).value).toMatch(/^trs_/)
  })

  it('makes the identity provider’s token, shows where it goes, and lists it as SCIM', {
    timeout: 30_000,
  }, async () => {
    await useLocale('en')
    const scim: ApiToken = { ...kept, name: 'Entra ID', kind: 'scim', role: 'MEMBER' }
    const posts: unknown[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        if (init?.method === 'POST') {
          posts.push(JSON.parse(String(init.body)))
          return Response.json(
            { apiToken: scim, token: `trs_0123456789ab_${'y'.repeat(43)}` },
            { status: 201 },
          )
        }
        return Response.json({ data: [scim] })
      }),
    )
    renderWithProviders(<OrganizationTokensCard organizationId={ORGANIZATION} />)
    expect((await screen.findByText(/^Entra ID/)).textContent).toMatch(
      /· identity provider \(SCIM\) · Member/,
    )
    fireEvent.change(screen.getByLabelText('Token name'), { target: { value: 'Okta' } })
    fireEvent.change(screen.getByLabelText('For'), { target: { value: 'scim' } })
    fireEvent.change(screen.getByLabelText('Role of the people it adds'), { target: { value: 'CONTACT' } })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Make a token' }))
    })
    expect(posts).toEqual([{ name: 'Okta', role: 'CONTACT', expiresAt: expect.any(String), kind: 'scim' }])
    const url = (await screen.findByLabelText('SCIM base URL (tenant URL)')) as HTMLInputElement
    expect(url.value).toBe(`${window.location.origin}/scim/v2`)
    await useLocale('fr')
  })
})
