import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { SetupChecklist } from './SetupChecklist.tsx'

beforeAll(async () => {
  await useLocale('en')
})

const none = { keychain: false, tags: false, member: false, plan: false }

describe('the setup checklist', () => {
  it('leads each step not done to where it is done', () => {
    renderWithProviders(<SetupChecklist setup={none} organizationId="o1" />)
    expect(screen.getByRole('heading', { name: 'Get started' })).toBeTruthy()
    expect(screen.getByText('Steps done: 0 of 4')).toBeTruthy()
    const links = screen.getAllByRole('link').map((link) => [link.textContent, link.getAttribute('href')])
    expect(links).toEqual([
      ['Create a first keychain', '/en/app/keychains/new'],
      ['Order tags for your keys', '/en/app/organizations/o1/new-order'],
      ['Invite a member', '/en/app/organizations/o1'],
      ['Choose a plan', '/en/app/plans'],
    ])
    expect(screen.getAllByLabelText('To do')).toHaveLength(4)
  })

  it('ticks the steps done, without a link, and counts them', () => {
    renderWithProviders(
      <SetupChecklist setup={{ ...none, keychain: true, plan: true }} organizationId="o1" />,
    )
    expect(screen.getByText('Steps done: 2 of 4')).toBeTruthy()
    expect(screen.getAllByLabelText('Done')).toHaveLength(2)
    expect(screen.queryByRole('link', { name: 'Create a first keychain' })).toBeNull()
    expect(screen.getByText('Create a first keychain')).toBeTruthy()
    expect(screen.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Order tags for your keys',
      'Invite a member',
    ])
  })

  it('is gone once every step is done', () => {
    const { container } = renderWithProviders(
      <SetupChecklist setup={{ keychain: true, tags: true, member: true, plan: true }} organizationId="o1" />,
    )
    expect(container.textContent).toBe('')
  })
})
