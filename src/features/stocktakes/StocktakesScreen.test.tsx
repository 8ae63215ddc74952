import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Place } from '../../../contract/places.ts'
import type { StocktakeDetail, StocktakeSummary } from '../../../contract/stocktakes.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { StocktakeLists } from './StocktakeLists.tsx'
import { StocktakesScreen } from './StocktakesScreen.tsx'

const BOARD: Place = {
  id: '11111111-1111-4111-8111-111111111111',
  parentId: null,
  kind: 'BOARD',
  name: 'Board A',
  depth: 0,
  publicId: 'abcdefghijklmn23',
  hookCount: 60,
  homeCount: 55,
  stocktakeEvery: 'MONTHLY',
  stocktakeDueOn: '2030-01-10',
  lastStocktake: null,
}
const counts = { expected: 55, found: 50, misplaced: 3, missing: 2, unexpected: 1 }
const SUMMARY: StocktakeSummary = {
  id: '22222222-2222-4222-8222-222222222222',
  status: 'CLOSED',
  scope: { id: BOARD.id, name: 'Board A', kind: 'BOARD' },
  startedAt: '2030-01-10T09:00:00.000Z',
  startedBy: null,
  closedAt: '2030-01-10T09:30:00.000Z',
  closedBy: null,
  counts,
}

type Sent = { method: string; path: string; body: unknown }

function server() {
  const sent: Sent[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      sent.push({ method, path, body: init?.body ? JSON.parse(String(init.body)) : undefined })
      if (path === '/api/places') return Response.json({ data: [BOARD] })
      if (path === '/api/stocktakes/due')
        return Response.json({ data: [{ place: BOARD, dueOn: '2030-01-10', overdue: true }] })
      if (method === 'POST' && path === '/api/stocktakes')
        return Response.json({
          ...SUMMARY,
          id: 'new',
          status: 'OPEN',
          boards: [],
          items: [],
          unexpected: [],
          devices: [],
          scanCount: 0,
        })
      return Response.json({ data: [SUMMARY], nextCursor: null })
    }),
  )
  return sent
}

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the stocktakes screen', () => {
  it('shows what is overdue and every stocktake with its tally', async () => {
    await useLocale('en')
    server()
    await renderWithRouter(
      <AbilityProvider permissions={['read__stocktake']}>
        <StocktakesScreen organizationId="o1" onStarted={() => undefined} />
      </AbilityProvider>,
    )
    expect(await screen.findByText('Board A: overdue since 10 Jan 2030')).toBeTruthy()
    expect(screen.getByText('50 found, 3 misplaced, 2 not found, 1 unexpected, of 55')).toBeTruthy()
    expect(screen.getByText('Closed')).toBeTruthy()
    // A member reads; only managers start one.
    expect(screen.queryByRole('button', { name: 'Start a stocktake' })).toBeNull()
  })

  it('lets a manager start one on a place and opens it', async () => {
    await useLocale('en')
    const sent = server()
    const onStarted = vi.fn()
    await renderWithRouter(
      <AbilityProvider permissions={['read__stocktake', 'create__stocktake', 'read__place']}>
        <StocktakesScreen organizationId="o1" onStarted={onStarted} />
      </AbilityProvider>,
    )
    const scope = await screen.findByRole('combobox', { name: 'What to count' })
    await screen.findByRole('option', { name: 'Board A' })
    await act(async () => {
      fireEvent.change(scope, { target: { value: BOARD.id } })
    })
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start a stocktake' }))
    })
    await vi.waitFor(() => expect(onStarted).toHaveBeenCalledWith('new'))
    expect(sent.filter((each) => each.method === 'POST')).toEqual([
      { method: 'POST', path: '/api/stocktakes', body: { placeId: BOARD.id } },
    ])
  })
})

describe('a stocktake’s lists', () => {
  it('names what remains, what is misplaced and where, and what was not expected', async () => {
    await useLocale('en')
    const hook = (code: string) => ({ id: code, code, placeId: BOARD.id, placeName: 'Board A' })
    const item = (id: string, state: 'PENDING' | 'MISPLACED' | 'FOUND', foundHook: string | null = null) => ({
      keychain: { id, name: `Keychain ${id}`, tagCodes: [] },
      state,
      expectedHook: hook(`A-0${id}`),
      foundHook: foundHook ? hook(foundHook) : null,
      foundAt: null,
      foundBy: null,
    })
    const items = [item('1', 'PENDING'), item('2', 'MISPLACED', 'B-07'), item('3', 'FOUND')]
    const detail: StocktakeDetail = {
      ...SUMMARY,
      status: 'OPEN',
      boards: [{ place: { id: BOARD.id, name: 'Board A' }, counts }],
      items,
      unexpected: [
        { keychain: null, value: 'ZZZ-00001', hook: null, scannedAt: SUMMARY.startedAt, scannedBy: null },
      ],
      devices: [],
      scanCount: 4,
    }
    await renderWithRouter(<StocktakeLists detail={detail} items={items} />)
    expect(await screen.findByRole('heading', { name: 'To find (1)' })).toBeTruthy()
    expect(screen.getByText('home A-01 · Board A')).toBeTruthy()
    expect(screen.getByText('on B-07 · Board A, home A-02 · Board A')).toBeTruthy()
    expect(screen.getByText('ZZZ-00001')).toBeTruthy()
    expect(screen.getByText('unknown to the organization')).toBeTruthy()
    expect(screen.queryByText('Keychain 3')).toBeNull()
  })

  it('shows the first 50 of a long list, and all of them on demand', async () => {
    await useLocale('en')
    const items = Array.from({ length: 60 }, (_, index) => ({
      keychain: { id: `k${index}`, name: `Keychain ${index}`, tagCodes: [] },
      state: 'PENDING' as const,
      expectedHook: null,
      foundHook: null,
      foundAt: null,
      foundBy: null,
    }))
    const detail: StocktakeDetail = {
      ...SUMMARY,
      status: 'OPEN',
      boards: [],
      items,
      unexpected: [],
      devices: [],
      scanCount: 0,
    }
    await renderWithRouter(<StocktakeLists detail={detail} items={items} />)
    const list = () => screen.getAllByRole('list')[0]!.querySelectorAll('li').length
    expect(await screen.findByRole('heading', { name: 'To find (60)' })).toBeTruthy()
    expect(list()).toBe(50)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Show all 60' }))
    })
    expect(list()).toBe(60)
    expect(screen.queryByRole('button', { name: 'Show all 60' })).toBeNull()
  })
})
