import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Organization } from '../../../contract/organizations.ts'
import { renderWithProviders, renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { OrganizationDetailScreen } from './OrganizationDetailScreen.tsx'
import { OrganizationSettingsCard } from './OrganizationSettingsCard.tsx'

const ORGANIZATION = '00000000-0000-4000-8000-0000000000d1'
const organization = (
  stocktakeRole: Organization['stocktakeRole'],
  handoverReceivers: Organization['handoverReceivers'] = 'MEMBERS',
): Organization => ({
  id: ORGANIZATION,
  name: 'Agence du Port',
  address: { line1: '3 quai Est', line2: '', city: 'Marseille', postalCode: '13002', country: 'FR' },
  timeZone: 'Europe/Paris',
  stocktakeRole,
  handoverReceivers,
  role: 'ADMIN',
  createdAt: '2030-01-10T09:00:00.000Z',
})

beforeAll(async () => {
  await useLocale('fr')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const select = () => screen.getByRole('combobox', { name: 'Qui peut scanner pendant les inventaires' })
const receivers = () =>
  screen.getByRole('combobox', { name: 'Qui peut recevoir des trousseaux de téléphone à téléphone' })
const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Enregistrer' }))
  })
}

describe('the organization’s settings', () => {
  it('shows who may scan in stocktakes and saves the role chosen', async () => {
    const writes: unknown[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        expect(new URL(url, 'http://localhost').pathname).toBe(`/api/organizations/${ORGANIZATION}`)
        expect(init?.method).toBe('PATCH')
        const body = JSON.parse(String(init?.body))
        writes.push(body)
        return Response.json(organization(body.stocktakeRole ?? 'MANAGER', body.handoverReceivers))
      }),
    )
    renderWithProviders(
      <OrganizationSettingsCard
        organizationId={ORGANIZATION}
        stocktakeRole="MEMBER"
        handoverReceivers="MEMBERS"
      />,
    )
    expect((select() as HTMLSelectElement).value).toBe('MEMBER')
    expect([...(select() as HTMLSelectElement).options].map((option) => [option.value, option.text])).toEqual(
      [
        ['MEMBER', 'Membres, gestionnaires et administrateurs'],
        ['MANAGER', 'Gestionnaires et administrateurs'],
        ['ADMIN', 'Administrateurs seulement'],
      ],
    )
    expect(
      screen.getByText('Les autres peuvent suivre un inventaire, mais leurs scans sont refusés.'),
    ).toBeTruthy()
    fireEvent.change(select(), { target: { value: 'MANAGER' } })
    await save()
    expect(writes).toEqual([{ stocktakeRole: 'MANAGER' }])
    expect(toasts.getSnapshot().at(-1)).toMatchObject({
      severity: 'success',
      summary: 'Les réglages sont enregistrés.',
    })
    expect((select() as HTMLSelectElement).value).toBe('MANAGER')

    // Then who may be handed keychains: only that change is sent.
    expect((receivers() as HTMLSelectElement).value).toBe('MEMBERS')
    expect(
      [...(receivers() as HTMLSelectElement).options].map((option) => [option.value, option.text]),
    ).toEqual([
      ['MEMBERS', 'Les membres seulement'],
      ['MEMBERS_AND_CONTACTS', 'Les membres, et les contacts pendant un transfert autorisé pour eux'],
    ])
    fireEvent.change(receivers(), { target: { value: 'MEMBERS_AND_CONTACTS' } })
    await save()
    expect(writes).toEqual([{ stocktakeRole: 'MANAGER' }, { handoverReceivers: 'MEMBERS_AND_CONTACTS' }])
    expect((receivers() as HTMLSelectElement).value).toBe('MEMBERS_AND_CONTACTS')
  })

  it('starts from the organization’s role and says so when the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json(
          { error: { code: 'forbidden', message: 'Forbidden.' } },
          { status: 403, headers: { 'content-type': 'application/json' } },
        ),
      ),
    )
    renderWithProviders(
      <OrganizationSettingsCard
        organizationId={ORGANIZATION}
        stocktakeRole="ADMIN"
        handoverReceivers="MEMBERS_AND_CONTACTS"
      />,
    )
    expect((select() as HTMLSelectElement).value).toBe('ADMIN')
    expect((receivers() as HTMLSelectElement).value).toBe('MEMBERS_AND_CONTACTS')
    fireEvent.change(select(), { target: { value: 'MEMBER' } })
    await save()
    await vi.waitFor(() =>
      expect(toasts.getSnapshot().at(-1)).toMatchObject({
        severity: 'error',
        summary: 'Les réglages n’ont pas pu être enregistrés.',
      }),
    )
  })
})

describe('the organization page', () => {
  const open = async (role: Organization['role']) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        const path = new URL(url, 'http://localhost').pathname
        if (path === `/api/organizations/${ORGANIZATION}`)
          return Response.json({ ...organization('MANAGER', 'MEMBERS_AND_CONTACTS'), role })
        return Response.json({ data: [], nextCursor: null })
      }),
    )
    await renderWithRouter(
      <OrganizationDetailScreen
        organizationId={ORGANIZATION}
        tab="tags"
        onTabChange={() => {}}
        selectedOrganizationId={ORGANIZATION}
      />,
    )
    await screen.findByRole('heading', { name: 'Agence du Port' })
  }

  it('offers the settings to an ADMIN, with the organization’s stocktake role and handover receivers', async () => {
    await open('ADMIN')
    expect((select() as HTMLSelectElement).value).toBe('MANAGER')
    expect((receivers() as HTMLSelectElement).value).toBe('MEMBERS_AND_CONTACTS')
    // The admins' cards load in their own chunks: the sign-in and tokens cards come too.
    await screen.findByRole('heading', { name: 'Connexion par votre fournisseur d’identité' })
    await screen.findByRole('heading', { name: 'Jetons d’API de l’organisation' })
  })

  it('does not offer them to a MANAGER', async () => {
    await open('MANAGER')
    expect(screen.queryByRole('combobox', { name: 'Qui peut scanner pendant les inventaires' })).toBeNull()
    expect(screen.queryByRole('form', { name: 'Réglages de l’organisation' })).toBeNull()
  })
})
