import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Hook, HookRange, PlaceDetail } from '../../../contract/places.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { hookCode } from './HookRangeForm.tsx'
import { PlaceScreen } from './PlaceScreen.tsx'

const SITE = '77777777-7777-4777-8777-777777777701'
const ROOM = '77777777-7777-4777-8777-777777777702'
const BOARD = '77777777-7777-4777-8777-777777777703'
const KEYCHAIN = '33333333-3333-4333-8333-333333333333'

const hook = (code: string, homeOf: Hook['homeOf'] = []): Hook => ({
  id: `88888888-8888-4888-8888-${code.replace(/\D/g, '').padStart(12, '0')}`,
  placeId: BOARD,
  code,
  publicId: 'abcdefghijklmnop',
  homeOf,
})

const BOARD_DETAIL: PlaceDetail = {
  id: BOARD,
  parentId: ROOM,
  kind: 'BOARD',
  name: 'Tableau A',
  depth: 2,
  publicId: 'abcdefghijklmnop',
  hookCount: 2,
  homeCount: 1,
  stocktakeEvery: null,
  stocktakeDueOn: null,
  lastStocktake: null,
  path: [
    { id: SITE, name: 'Siège', kind: 'SITE' },
    { id: ROOM, name: 'Accueil', kind: 'ROOM' },
    { id: BOARD, name: 'Tableau A', kind: 'BOARD' },
  ],
  hooks: [hook('A-01', [{ id: KEYCHAIN, name: 'Local vélos' }]), hook('A-02')],
}

const MANAGER = ['read__place', 'create__place', 'update__place', 'delete__place']
const MEMBER = ['read__place']

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server holding one board: a range adds its hooks (skipping codes already there); `refuse` refuses writes. */
function server(refuse?: { status: number; code: string }) {
  const board: PlaceDetail = { ...BOARD_DETAIL, hooks: [...BOARD_DETAIL.hooks] }
  const sent: Array<{ method: string; path: string; body: unknown }> = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const path = new URL(String(input), 'http://app.test').pathname
      const method = init?.method ?? 'GET'
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      sent.push({ method, path, body })
      if (method !== 'GET' && refuse)
        return Response.json({ error: { code: refuse.code, message: 'Refused.' } }, { status: refuse.status })
      if (method === 'GET' && path === `/api/places/${BOARD}`) return Response.json(board)
      if (method === 'POST' && path === `/api/places/${BOARD}/hooks`) {
        const range = body as Required<HookRange>
        const made: Hook[] = []
        let skipped = 0
        for (let number = range.from; number <= range.to; number++) {
          const code = hookCode(range.prefix, number, range.width)
          if (board.hooks.some((each) => each.code === code)) skipped++
          else made.push(hook(code))
        }
        board.hooks.push(...made)
        board.hookCount = board.hooks.length
        return Response.json({ created: made.length, skipped, hooks: made })
      }
      return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
    }),
  )
  return { sent, writes: () => sent.filter((each) => each.method !== 'GET') }
}

async function open(permissions: string[]) {
  await renderWithRouter(
    <AbilityProvider permissions={permissions}>
      <PlaceScreen organizationId="o1" id={BOARD} timeZone="Europe/Paris" />
    </AbilityProvider>,
  )
  return screen.findByRole('list', { name: 'Hooks' })
}

const codes = (grid: HTMLElement) =>
  within(grid)
    .getAllByRole('listitem')
    .map((cell) => cell.textContent)

describe("a board's page", () => {
  it('shows its path and its hooks as a grid, each with the keychain at home or empty', async () => {
    server()
    const grid = await open(MEMBER)
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Tableau A')
    const path = screen.getByRole('navigation', { name: 'Path' })
    expect(
      within(path)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Places', 'Siège', 'Accueil'])
    expect(codes(grid)).toEqual(['A-01Local vélos', 'A-02Empty'])
    expect(within(grid).getByRole('link', { name: 'Local vélos' }).getAttribute('href')).toBe(
      `/en/app/keychains/${KEYCHAIN}`,
    )
    expect(screen.getByRole('region', { name: 'Print labels' })).toBeTruthy()
  })

  it('hides adding, removing and the stocktake setting from a member', async () => {
    server()
    await open(MEMBER)
    expect(screen.queryByRole('form', { name: 'Add hooks' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^Remove hook/ })).toBeNull()
    expect(screen.queryByRole('combobox', { name: 'Recurring stocktake' })).toBeNull()
    expect(screen.getAllByText('No recurring stocktake').length).toBeGreaterThan(0)
  })

  it('adds a range of hooks, previewing its first and last codes', async () => {
    const { writes } = server()
    const grid = await open(MANAGER)
    const form = screen.getByRole('form', { name: 'Add hooks' })
    const field = (name: string) => within(form).getByRole('textbox', { name })
    // A new range starts after the board's last number.
    expect((field('From') as HTMLInputElement).value).toBe('3')
    await act(async () => {
      fireEvent.change(field('Prefix'), { target: { value: 'a-' } })
      fireEvent.change(field('From'), { target: { value: '1' } })
      fireEvent.change(field('To'), { target: { value: '60' } })
    })
    expect(screen.getByTestId('hook-range-preview').textContent).toBe('60 hooks: A-01 to A-60')
    await act(async () => {
      fireEvent.change(field('Digits'), { target: { value: '3' } })
    })
    expect(screen.getByTestId('hook-range-preview').textContent).toBe('60 hooks: A-001 to A-060')
    await act(async () => {
      fireEvent.change(field('Digits'), { target: { value: '2' } })
    })
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add the hooks' }))
    })
    expect(writes()).toEqual([
      {
        method: 'POST',
        path: `/api/places/${BOARD}/hooks`,
        body: { prefix: 'A-', from: 1, to: 60, width: 2 },
      },
    ])
    await vi.waitFor(() => expect(codes(grid)).toHaveLength(60))
    expect(codes(grid).at(-1)).toBe('A-60Empty')
  })

  it('refuses a range that ends before it starts, before asking the server', async () => {
    const { writes } = server()
    await open(MANAGER)
    const form = screen.getByRole('form', { name: 'Add hooks' })
    await act(async () => {
      fireEvent.change(within(form).getByRole('textbox', { name: 'To' }), { target: { value: '1' } })
    })
    expect(screen.getByTestId('hook-range-preview').textContent).toBe(
      'Fill in the range to see its first and last codes.',
    )
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add the hooks' }))
    })
    expect(within(form).getByRole('alert').textContent).toBe('The range ends before it starts.')
    expect(writes()).toEqual([])
  })

  it('explains why a hook that is a home cannot be removed', { timeout: 30_000 }, async () => {
    server({ status: 409, code: 'place_in_use' })
    await open(MANAGER)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Remove hook A-01' }))
    })
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 20_000 })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }))
    })
    const alert = await screen.findByText(/^Hook A-01 could not be removed\./)
    expect(alert.textContent).toMatch(/keychains whose home is one of its hooks/)
  })

  it("lists a room's places inside it, without hooks or labels", async () => {
    const room: PlaceDetail = {
      ...BOARD_DETAIL,
      id: ROOM,
      parentId: SITE,
      kind: 'ROOM',
      name: 'Accueil',
      depth: 1,
      publicId: null,
      hookCount: 0,
      homeCount: 1,
      path: BOARD_DETAIL.path.slice(0, 2),
      hooks: [],
    }
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const path = new URL(String(input), 'http://app.test').pathname
        if (path === `/api/places/${ROOM}`) return Response.json(room)
        if (path === '/api/places')
          return Response.json({
            data: [
              { ...room, id: SITE, parentId: null, kind: 'SITE', name: 'Siège', depth: 0 },
              room,
              { ...BOARD_DETAIL, path: undefined, hooks: undefined },
            ],
          })
        return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
      }),
    )
    await renderWithRouter(
      <AbilityProvider permissions={MANAGER}>
        <PlaceScreen organizationId="o1" id={ROOM} timeZone="Europe/Paris" />
      </AbilityProvider>,
    )
    const inside = await screen.findByRole('list', { name: 'Inside it' })
    await within(inside).findByRole('link', { name: 'Tableau A' })
    expect(
      within(inside)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Tableau AKey board'])
    expect(screen.queryByRole('list', { name: 'Hooks' })).toBeNull()
    expect(screen.queryByRole('form', { name: 'Add hooks' })).toBeNull()
    expect(screen.queryByRole('region', { name: 'Print labels' })).toBeNull()
  })
})
