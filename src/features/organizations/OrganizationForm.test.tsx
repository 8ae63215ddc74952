import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { OrganizationForm } from './OrganizationForm.tsx'

afterEach(async () => {
  await useLocale('en')
})

async function submit(name: string) {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }))
  })
}

describe('organization form', () => {
  it('names every missing required field, in English', async () => {
    const onSubmit = vi.fn(async () => undefined)
    renderWithProviders(<OrganizationForm locale="en" onSubmit={onSubmit} submitLabel="Create" />)
    await submit('Create')
    for (const message of [
      'The name is required.',
      'The address is required.',
      'The city is required.',
      'The postal code is required.',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy()
    }
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('says the same in French, in French', async () => {
    await useLocale('fr')
    renderWithProviders(<OrganizationForm locale="fr" onSubmit={async () => undefined} submitLabel="Créer" />)
    await submit('Créer')
    expect(await screen.findByText('Le nom est obligatoire.')).toBeTruthy()
    expect(screen.getByText('La ville est obligatoire.')).toBeTruthy()
    expect(screen.getByRole('combobox', { name: 'Pays' })).toBeTruthy()
  })

  it('sends the name and the address with the country code', async () => {
    const onSubmit = vi.fn(async () => undefined)
    renderWithProviders(<OrganizationForm locale="en" onSubmit={onSubmit} submitLabel="Create" />)
    const fill = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } })
    fill('Name', 'Agence Nord')
    fill('Address', '1 rue de la Paix')
    fill('Postal code', '75002')
    fill('City', 'Paris')
    fireEvent.change(screen.getByRole('combobox', { name: 'Country' }), { target: { value: 'BE' } })
    await submit('Create')
    await waitFor(() => expect(onSubmit).toHaveBeenCalled())
    expect(onSubmit).toHaveBeenCalledWith({
      name: 'Agence Nord',
      address: { line1: '1 rue de la Paix', line2: '', city: 'Paris', postalCode: '75002', country: 'BE' },
    })
  })
})
