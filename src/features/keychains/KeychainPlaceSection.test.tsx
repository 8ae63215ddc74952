import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Keychain } from '../../../contract/keychains.ts'
import type { KeychainLocation, Place, PlaceDetail } from '../../../contract/places.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { KeychainPlaceSection } from './KeychainPlaceSection.tsx'

const ORGANIZATION = '22222222-2222-4222-8222-222222222222'
const BOARD_A = '55555555-5555-4555-8555-555555555551'
const BOARD_B = '55555555-5555-4555-8555-555555555552'
const HOOK_A12 = '66666666-6666-4666-8666-666666666612'
const HOOK_B03 = '66666666-6666-4666-8666-666666666603'
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
const A12 = { id: HOOK_A12, code: 'A-12', placeId: BOARD_A, placeName: 'Board A' }
const B03 = { id: HOOK_B03, code: 'B-03', placeId: BOARD_B, placeName: 'Board B' }
const PAUL = {
  id: '11111111-1111-4111-8111-111111111111',
  email: 'paul@example.com',
  firstName: 'Paul',
  lastName: 'Roux',
}

const location = (over: Partial<KeychainLocation>): KeychainLocation => ({
  whereabouts: 'UNKNOWN',
  home: null,
  seenOn: null,
  seenAt: null,
  seenBy: null,
  ...over,
})

const place = (id: string, name: string): Place => ({
  id,
  parentId: null,
  kind: 'BOARD',
  name,
  depth: 0,
  publicId: 'abcdefghijklmnop',
  hookCount: 1,
  homeCount: 0,
  stocktakeEvery: null,
  stocktakeDueOn: null,
  lastStocktake: null,
})

afterEach(() => {
  vi.unstubAllGlobals()
})
beforeAll(async () => {
  await useLocale('en')
})

/** A server with one keychain's location; `PUT …/home` changes its home as the real one does. */
function server(start: KeychainLocation, custody: unknown[] = []) {
  let current = start
  const sent: Array<{ method: string; path: string; body: unknown }> = []
  const board: PlaceDetail = {
    ...place(BOARD_B, 'Board B'),
    path: [{ id: BOARD_B, name: 'Board B', kind: 'BOARD' }],
    hooks: [{ id: HOOK_B03, placeId: BOARD_B, code: 'B-03', publicId: 'abcdefghijklmnoq', homeOf: [] }],
  }
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      sent.push({ method, path, body })
      if (path === `/api/keychains/${KEYCHAIN.id}/location`) return Response.json(current)
      if (path === `/api/keychains/${KEYCHAIN.id}/custody-log`) return Response.json({ data: custody })
      if (method === 'PUT' && path === `/api/keychains/${KEYCHAIN.id}/home`) {
        const hookId = (body as { hookId: string | null }).hookId
        current = location({ whereabouts: 'UNKNOWN', home: hookId === HOOK_B03 ? B03 : null })
        return Response.json(current)
      }
      if (path === '/api/places')
        return Response.json({ data: [place(BOARD_A, 'Board A'), place(BOARD_B, 'Board B')] })
      if (path === `/api/places/${BOARD_B}`) return Response.json(board)
      return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
    }),
  )
  return sent
}

function open(keychain: Keychain = KEYCHAIN, permissions = ['read__place', 'read__keychain']) {
  return renderWithRouter(
    <AbilityProvider permissions={permissions}>
      <KeychainPlaceSection keychain={keychain} timeZone="Europe/Paris" />
    </AbilityProvider>,
  )
}

describe('where a keychain lives, on its page', () => {
  it('says it is on its home hook, with the board', async () => {
    server(location({ whereabouts: 'AT_HOME', home: A12, seenOn: A12 }))
    await open()
    expect((await screen.findByTestId('keychain-whereabouts')).textContent).toBe('On hook A-12 (Board A)')
    expect(screen.getByTestId('keychain-home').textContent).toBe('A-12 (Board A)')
    // A member reads; only a manager changes the home.
    expect(screen.queryByRole('button', { name: /home hook/ })).toBeNull()
  })

  it('says who holds it and since when', async () => {
    server(location({ whereabouts: 'HELD', home: A12 }), [
      { id: 'c1', at: '2030-01-12T09:30:00.000Z', by: null, from: null, to: PAUL, reason: '' },
    ])
    await open({ ...KEYCHAIN, custodian: PAUL, status: 'HELD' })
    await waitFor(() =>
      expect(screen.getByTestId('keychain-whereabouts').textContent).toMatch(
        /^Held by Paul Roux since 12 Jan 2030, \d\d:\d\d$/,
      ),
    )
  })

  it('says until when it is out on a transfer', async () => {
    server(location({ whereabouts: 'HELD', home: A12 }))
    await open({
      ...KEYCHAIN,
      custodian: PAUL,
      status: 'OUT',
      transfer: { startsAt: '2030-01-10T12:00:00.000Z', endsAt: '2030-01-20T12:00:00.000Z' },
    })
    expect((await screen.findByTestId('keychain-whereabouts')).textContent).toBe('Out until 20 Jan 2030')
  })

  it('says where a misplaced keychain was seen', async () => {
    server(location({ whereabouts: 'MISPLACED', home: A12, seenOn: B03 }))
    await open()
    expect((await screen.findByTestId('keychain-whereabouts')).textContent).toBe(
      'Misplaced: seen on B-03 (Board B)',
    )
  })

  it('lets a manager choose a board then a hook as its home, or no home', async () => {
    const sent = server(location({ whereabouts: 'AT_HOME', home: A12, seenOn: A12 }))
    await open(KEYCHAIN, ['read__place', 'read__keychain', 'update__keychain'])
    await act(async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Change its home hook' }))
    })
    const boards = await screen.findByRole('combobox', { name: 'Board or cabinet' })
    await screen.findByRole('option', { name: 'Board B' })
    await act(async () => {
      fireEvent.change(boards, { target: { value: BOARD_B } })
    })
    await screen.findByRole('option', { name: 'B-03' })
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Hook' }), { target: { value: HOOK_B03 } })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Make it its home' }))
    })
    expect(sent.filter((each) => each.method === 'PUT')).toEqual([
      { method: 'PUT', path: `/api/keychains/${KEYCHAIN.id}/home`, body: { hookId: HOOK_B03 } },
    ])
    expect((await screen.findByTestId('keychain-home')).textContent).toBe('B-03 (Board B)')
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Change its home hook' }))
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'No home' }))
    })
    expect(sent.filter((each) => each.method === 'PUT').at(-1)?.body).toEqual({ hookId: null })
    expect((await screen.findByTestId('keychain-home')).textContent).toBe('No home hook')
  })

  it('shows nothing to a role that does not read places, and asks nothing', async () => {
    const sent = server(location({}))
    await open(KEYCHAIN, ['read__keychain'])
    expect(screen.queryByText('Where it lives')).toBeNull()
    expect(sent).toEqual([])
  })
})
