import { act, fireEvent, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Keychain } from '../../../contract/keychains.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { keychainKeys } from '../../api/keychain-keys.ts'
import { AbilityProvider } from '../../lib/ability.tsx'
import { KeychainDetailScreen } from './KeychainDetailScreen.tsx'
import { undoDeletion } from './undo-deletion.ts'

const ORGANIZATION = '22222222-2222-4222-8222-222222222222'
const KEYCHAIN: Keychain = {
  id: '33333333-3333-4333-8333-333333333333',
  organizationId: ORGANIZATION,
  organizationName: 'Agence du Canal',
  name: 'Local vélos',
  custodian: null,
  keys: [],
  createdAt: '2030-01-10T12:00:00.000Z',
  updatedAt: '2030-01-10T12:00:00.000Z',
  status: 'FREE',
  transfer: null,
}

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
  // The undo offer outlives the page (it waits for the list): not for the next test file's list.
  undoDeletion.dismiss()
})

/** A server holding one keychain until it is deleted; then its page and custody log answer 404, as the real one does. */
function server() {
  let deleted = false
  const sent: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      sent.push(`${method} ${path}`)
      if (method === 'DELETE' && path === `/api/keychains/${KEYCHAIN.id}`) {
        deleted = true
        return new Response(null, { status: 204 })
      }
      if (deleted && path.startsWith(`/api/keychains/${KEYCHAIN.id}`))
        return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
      if (path === `/api/keychains/${KEYCHAIN.id}`) return Response.json(KEYCHAIN)
      if (path === `/api/keychains/${KEYCHAIN.id}/custody-log`) return Response.json({ data: [] })
      return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
    }),
  )
  return sent
}

/**
 * The keychain's page until its deletion, then the list it goes back to. As with the app's router, the page stays
 * a moment after `onDeleted` (the list's code and data load first) and renders again meanwhile.
 */
function KeychainPage() {
  const [left, setLeft] = useState(false)
  if (left) return <p>The keychain list</p>
  return (
    <KeychainDetailScreen
      organizationId={ORGANIZATION}
      keychainId={KEYCHAIN.id}
      members={[]}
      timeZone="Europe/Paris"
      onDeleted={() => setTimeout(() => setLeft(true), 100)}
    />
  )
}

describe('deleting a keychain from its page', () => {
  it('does not fetch the deleted keychain or its custody log again, and leaves neither in the cache', {
    timeout: 30_000,
  }, async () => {
    const sent = server()
    const { queryClient } = await renderWithRouter(
      <AbilityProvider permissions={['read__keychain', 'update__keychain', 'delete__keychain']}>
        <KeychainPage />
      </AbilityProvider>,
    )
    await screen.findByRole('heading', { level: 1, name: 'Local vélos' })
    await vi.waitFor(() => expect(sent).toContain(`GET /api/keychains/${KEYCHAIN.id}/custody-log`))

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete the keychain' }))
    })
    // The dialog's code loads on first opening.
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 20_000 })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    })
    await screen.findByText('The keychain list')

    const afterDeletion = sent.slice(sent.indexOf(`DELETE /api/keychains/${KEYCHAIN.id}`) + 1)
    expect(sent).toContain(`DELETE /api/keychains/${KEYCHAIN.id}`)
    expect(afterDeletion.filter((request) => request.includes(KEYCHAIN.id))).toEqual([])
    const cached = queryClient
      .getQueryCache()
      .findAll({ queryKey: keychainKeys.one(ORGANIZATION, KEYCHAIN.id) })
    expect(cached.map((query) => query.queryKey)).toEqual([])
  })
})

describe('handing a keychain over from its page', () => {
  const HOLDER = {
    id: '44444444-4444-4444-8444-444444444444',
    email: 'ines@example.com',
    firstName: 'Inès',
    lastName: 'Roy',
  }
  const open = async (
    keychain: Keychain,
    viewerId: string,
    permissions = ['read__keychain', 'create__handover'],
  ) => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const path = new URL(String(input), 'http://app.test').pathname
        if (path === `/api/keychains/${KEYCHAIN.id}`) return Response.json(keychain)
        return Response.json({ data: [] })
      }),
    )
    const shown = await renderWithRouter(
      <AbilityProvider permissions={permissions}>
        <KeychainDetailScreen
          organizationId={ORGANIZATION}
          keychainId={KEYCHAIN.id}
          members={[]}
          timeZone="Europe/Paris"
          viewerId={viewerId}
          onDeleted={() => undefined}
        />
      </AbilityProvider>,
    )
    await screen.findByRole('heading', { level: 1, name: 'Local vélos' })
    return shown
  }
  const held = { ...KEYCHAIN, custodian: HOLDER, status: 'HELD' as const }

  it('offers "Hand over" to the one who holds it', async () => {
    await open(held, HOLDER.id)
    expect(screen.getByRole('link', { name: 'Hand over' }).getAttribute('href')).toBe(
      `/en/app/handover/${KEYCHAIN.id}`,
    )
  })

  it.each([
    ['someone else', held, 'another-user', undefined],
    ['a role that may not', held, HOLDER.id, ['read__keychain']],
    ['a keychain out on a transfer', { ...held, status: 'OUT' as const }, HOLDER.id, undefined],
  ])('does not offer it to %s', async (_, keychain, viewer, permissions) => {
    await open(keychain, viewer, permissions)
    expect(screen.queryByRole('link', { name: 'Hand over' })).toBeNull()
  })
})
