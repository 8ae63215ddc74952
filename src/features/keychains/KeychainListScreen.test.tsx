import { act, fireEvent, screen, within } from '@testing-library/react'
import { Profiler } from 'react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { KeychainSummary } from '../../../contract/keychains.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { KeychainListScreen } from './KeychainListScreen.tsx'

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const keychain = (n: number): KeychainSummary => ({
  id: `00000000-0000-4000-8000-00000000000${n}`,
  name: `Cave ${n}`,
  custodian: null,
  keyCount: 0,
  tagCodes: [],
  updatedAt: '2030-01-01T00:00:00.000Z',
})

function server() {
  const sent: Array<{ url: string; body: string }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      sent.push({ url: String(url), body: String(init.body) })
      if (String(url).startsWith('/api/keychains'))
        return Response.json({ data: [keychain(1), keychain(2), keychain(3)], nextCursor: null })
      return Response.json({ count: 3, unchanged: 0 })
    }),
  )
  return sent
}

const listScreen = (permissions = ['read__keychain', 'update__keychain', 'delete__keychain']) => (
  <AbilityProvider permissions={permissions}>
    <KeychainListScreen
      organizationId="o1"
      members={[]}
      currentUserId="u1"
      timeZone="Europe/Paris"
      onOpen={() => undefined}
    />
  </AbilityProvider>
)

async function renderScreen(permissions?: string[]) {
  await renderWithRouter(listScreen(permissions))
  await screen.findByText('Cave 1')
}

describe('selecting keychains on the list', () => {
  it('ticks rows, counts them in the bar, and clears', async () => {
    server()
    await renderScreen()
    expect(screen.queryByRole('region', { name: 'Selected keychains' })).toBeNull()
    expect(screen.queryByRole('button', { name: /Select all/ })).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select Cave 1' }))
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select Cave 3' }))
    })
    const bar = await screen.findByRole('region', { name: 'Selected keychains' })
    expect(within(bar).getByText('2 keychains selected')).toBeTruthy()
    const link = within(bar).getByRole('link', { name: 'Export' })
    expect(link.getAttribute('href')).toBe(
      `/api/keychain-export?ids=${encodeURIComponent(`${keychain(1).id},${keychain(3).id}`)}`,
    )
    await act(async () => {
      fireEvent.click(within(bar).getByRole('button', { name: 'Clear the selection' }))
    })
    expect(screen.queryByRole('region', { name: 'Selected keychains' })).toBeNull()
    expect((screen.getByRole('checkbox', { name: 'Select Cave 1' }) as HTMLInputElement).checked).toBe(false)
  })

  it('with a search, selects all matching (the rows of the complete list: the search also finds tags and holders), and unticking one leaves the others', async () => {
    server()
    await renderScreen()
    await act(async () => {
      fireEvent.change(
        screen.getByRole('searchbox', { name: 'Search keychains by name, tag code or holder' }),
        {
          target: { value: 'cave' },
        },
      )
    })
    const all = await screen.findByRole('button', { name: 'Select all 3 matching' })
    await act(async () => {
      fireEvent.click(all)
    })
    const bar = await screen.findByRole('region', { name: 'Selected keychains' })
    expect(within(bar).getByText('3 keychains selected')).toBeTruthy()
    expect(within(bar).getByRole('link', { name: 'Export' }).getAttribute('href')).toBe(
      `/api/keychain-export?ids=${encodeURIComponent([1, 2, 3].map((n) => keychain(n).id).join(','))}`,
    )
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(true)
    await act(async () => {
      fireEvent.click(screen.getByRole('checkbox', { name: 'Select Cave 2' }))
    })
    expect(within(bar).getByText('2 keychains selected')).toBeTruthy()
    await act(async () => {
      fireEvent.click(within(bar).getByRole('button', { name: 'Clear the selection' }))
    })
    for (const box of screen.getAllByRole('checkbox')) expect((box as HTMLInputElement).checked).toBe(false)
  })
})

describe('keychains by place', () => {
  const BOARD = '55555555-5555-4555-8555-555555555551'
  const ROOM = '55555555-5555-4555-8555-555555555550'
  const placeRow = (id: string, name: string, kind: 'ROOM' | 'BOARD', depth: number) => ({
    id,
    parentId: depth ? ROOM : null,
    kind,
    name,
    depth,
    publicId: null,
    hookCount: 0,
    homeCount: 0,
    stocktakeEvery: null,
    stocktakeDueOn: null,
    lastStocktake: null,
  })

  function placesServer() {
    const asked: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(String(input), 'http://app.test')
        asked.push(`${url.pathname}${url.search}`)
        if (url.pathname === '/api/places')
          return Response.json({
            data: [placeRow(ROOM, 'Accueil', 'ROOM', 0), placeRow(BOARD, 'Tableau A', 'BOARD', 1)],
          })
        const home = { id: 'h1', code: 'A-12', placeId: BOARD, placeName: 'Tableau A' }
        return Response.json({
          data: [
            { ...keychain(1), home, whereabouts: 'AT_HOME' },
            { ...keychain(2), home: { ...home, code: 'A-13' }, whereabouts: 'MISPLACED' },
            { ...keychain(3), home: null, whereabouts: 'UNKNOWN' },
          ],
          nextCursor: null,
        })
      }),
    )
    return asked
  }

  it('shows each home, filters by a place and sorts by place', async () => {
    const asked = placesServer()
    await renderScreen(['read__keychain', 'read__place'])
    const row = (name: string) => screen.getByRole('link', { name }).closest('li') as HTMLElement
    expect(within(row('Cave 1')).getByText(/home A-12 \(Tableau A\)$/)).toBeTruthy()
    expect(within(row('Cave 2')).getByText(/home A-13 \(Tableau A\), misplaced$/)).toBeTruthy()
    expect(within(row('Cave 3')).queryByText(/home/)).toBeNull()
    const place = screen.getByRole('combobox', { name: 'Place' }) as HTMLSelectElement
    await screen.findByRole('option', { name: /Tableau A/ })
    expect([...place.options].map((option) => option.textContent)).toEqual([
      'Anywhere',
      'Accueil',
      '\u00a0\u00a0Tableau A',
    ])
    await act(async () => {
      fireEvent.change(place, { target: { value: ROOM } })
    })
    await vi.waitFor(() => expect(asked.some((each) => each.includes(`placeId=${ROOM}`))).toBe(true))
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox', { name: 'Sort by' }), { target: { value: 'place' } })
    })
    await vi.waitFor(() =>
      expect(asked.some((each) => each.includes('sort=place') && each.includes(`placeId=${ROOM}`))).toBe(
        true,
      ),
    )
  })

  it('offers neither the place filter nor the place sort to a role that does not read places', async () => {
    const asked = placesServer()
    await renderScreen(['read__keychain'])
    expect(screen.queryByRole('combobox', { name: 'Place' })).toBeNull()
    const sort = screen.getByRole('combobox', { name: 'Sort by' }) as HTMLSelectElement
    expect([...sort.options].map((option) => option.value)).toEqual(['name', 'holder', 'changed'])
    expect(asked.filter((each) => each.startsWith('/api/places'))).toEqual([])
  })
})

describe('the first render of the rows', () => {
  it('commits the rows after the answer, in a render of their own, not in the one that brought the answer', async () => {
    server()
    const commits: Array<{ answered: boolean; rows: number }> = []
    let answered = () => false
    const screenUi = (
      <Profiler
        id="list"
        onRender={() =>
          commits.push({
            answered: answered(),
            rows: document.querySelectorAll('ul[aria-label="Keychains"] > li').length,
          })
        }
      >
        {listScreen(['read__keychain'])}
      </Profiler>
    )
    const { queryClient } = await renderWithRouter(screenUi)
    answered = () =>
      queryClient
        .getQueryCache()
        .findAll({ queryKey: ['keychains'] })
        .some((query) => query.state.data)
    await screen.findByText('Cave 1')
    const firstWithAnswer = commits.findIndex((commit) => commit.answered)
    const firstWithRows = commits.findIndex((commit) => commit.rows > 0)
    expect(firstWithAnswer).toBeGreaterThanOrEqual(0)
    expect(commits[firstWithAnswer]!.rows).toBe(0)
    expect(firstWithRows).toBeGreaterThan(firstWithAnswer)
    expect(commits[firstWithRows]!.rows).toBe(3)
  })
})
