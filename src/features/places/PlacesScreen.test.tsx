import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Place, PlaceCreate } from '../../../contract/places.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { AbilityProvider } from '../../lib/ability.tsx'
import { PlacesScreen } from './PlacesScreen.tsx'

const SITE = '77777777-7777-4777-8777-777777777701'
const ROOM = '77777777-7777-4777-8777-777777777702'
const BOARD = '77777777-7777-4777-8777-777777777703'
const NEW = '77777777-7777-4777-8777-777777777704'

const place = (over: Partial<Place> & Pick<Place, 'id' | 'name' | 'kind'>): Place => ({
  parentId: null,
  depth: 0,
  publicId: null,
  hookCount: 0,
  homeCount: 0,
  stocktakeEvery: null,
  stocktakeDueOn: null,
  lastStocktake: null,
  ...over,
})

const TREE: Place[] = [
  place({ id: SITE, name: 'Siège', kind: 'SITE', homeCount: 55 }),
  place({ id: ROOM, name: 'Accueil', kind: 'ROOM', parentId: SITE, depth: 1, homeCount: 55 }),
  place({
    id: BOARD,
    name: 'Tableau A',
    kind: 'BOARD',
    parentId: ROOM,
    depth: 2,
    publicId: 'abcdefghijklmnop',
    hookCount: 60,
    homeCount: 55,
    stocktakeEvery: 'MONTHLY',
    stocktakeDueOn: '2099-03-01',
  }),
]

const MANAGER = ['read__place', 'create__place', 'update__place', 'delete__place']
const MEMBER = ['read__place']

beforeAll(async () => {
  await useLocale('en')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server holding the tree: a creation adds to it; `refuse` answers every write with that status and code. */
function server(refuse?: { status: number; code: string }) {
  const tree = [...TREE]
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
      if (method === 'GET' && path === '/api/places') return Response.json({ data: tree })
      if (method === 'POST' && path === '/api/places') {
        const create = body as PlaceCreate
        const parent = tree.find((each) => each.id === create.parentId)
        const made = place({
          id: NEW,
          name: create.name,
          kind: create.kind,
          parentId: create.parentId ?? null,
          depth: parent ? parent.depth + 1 : 0,
        })
        tree.splice(parent ? tree.indexOf(parent) + 1 : tree.length, 0, made)
        return Response.json({ ...made, path: [], hooks: [] })
      }
      return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
    }),
  )
  return { sent, writes: () => sent.filter((each) => each.method !== 'GET') }
}

async function open(permissions: string[]) {
  await renderWithRouter(
    <AbilityProvider permissions={permissions}>
      <PlacesScreen organizationId="o1" timeZone="Europe/Paris" />
    </AbilityProvider>,
  )
  return screen.findByRole('list', { name: 'Places' })
}

const rowOf = (name: string) => screen.getByRole('link', { name }).closest('li') as HTMLElement

describe('the places screen', () => {
  it('shows the tree indented, each with its kind, hooks, keychains at home and stocktake due', async () => {
    server()
    const list = await open(MEMBER)
    const rows = within(list).getAllByRole('listitem')
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual([
      'Siège',
      'Accueil',
      'Tableau A',
    ])
    expect(rows.map((row) => row.style.paddingInlineStart)).toEqual(['0rem', '1.5rem', '3rem'])
    const board = rowOf('Tableau A')
    expect(within(board).getByText('Key board')).toBeTruthy()
    expect(within(board).getByText('60 hooks')).toBeTruthy()
    expect(within(board).getByText('55 keychains at home')).toBeTruthy()
    expect(within(board).getByText('Stocktake due on 1 Mar 2099')).toBeTruthy()
    expect(within(rowOf('Siège')).getByText('Site')).toBeTruthy()
    expect(within(rowOf('Siège')).queryByText(/hooks?$/)).toBeNull()
    expect(screen.getByRole('link', { name: 'Tableau A' }).getAttribute('href')).toBe(
      `/en/app/places/${BOARD}`,
    )
  })

  it('hides every editing control from a member', async () => {
    server()
    await open(MEMBER)
    expect(screen.queryByRole('button', { name: 'Add a place' })).toBeNull()
    expect(screen.queryByRole('button', { name: /^(Add inside|Rename|Move|Delete) / })).toBeNull()
  })

  it('creates a place under another, with the kinds its parent allows, and shows it in the tree', async () => {
    const { writes } = server()
    await open(MANAGER)
    // A board holds hooks, not places: nothing can be added inside it.
    expect(screen.queryByRole('button', { name: 'Add inside Tableau A' })).toBeNull()
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Add inside Accueil' }))
    })
    const form = screen.getByRole('form', { name: 'Place form' })
    expect(within(form).getByRole('heading').textContent).toBe('New place in Accueil')
    // In a room, a board is proposed first.
    expect((within(form).getByRole('combobox', { name: 'Kind' }) as HTMLSelectElement).value).toBe('BOARD')
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add the place' }))
    })
    expect(within(form).getByText('Give the place a name.')).toBeTruthy()
    expect(writes()).toEqual([])
    await act(async () => {
      fireEvent.change(within(form).getByRole('textbox', { name: 'Name' }), {
        target: { value: ' Armoire B ' },
      })
      fireEvent.change(within(form).getByRole('combobox', { name: 'Kind' }), { target: { value: 'CABINET' } })
    })
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Add the place' }))
    })
    expect(writes()).toEqual([
      { method: 'POST', path: '/api/places', body: { name: 'Armoire B', kind: 'CABINET', parentId: ROOM } },
    ])
    await screen.findByRole('link', { name: 'Armoire B' })
    expect(screen.queryByRole('form', { name: 'Place form' })).toBeNull()
    expect(within(rowOf('Armoire B')).getByText('Key cabinet')).toBeTruthy()
  })

  it('offers as a new parent neither the place itself, nor what is under it, nor a board', async () => {
    server()
    await open(MANAGER)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Move Accueil' }))
    })
    const under = screen.getByRole('combobox', { name: 'Under' }) as HTMLSelectElement
    expect([...under.options].map((option) => option.textContent?.trim())).toEqual([
      'At the top (no place above it)',
      'Siège',
    ])
    expect(under.value).toBe(SITE)
  })

  it('explains in words why a place in use cannot be deleted', { timeout: 30_000 }, async () => {
    const { writes } = server({ status: 409, code: 'place_in_use' })
    await open(MANAGER)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Delete Accueil' }))
    })
    // The dialog's code loads on first opening.
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 20_000 })
    await act(async () => {
      fireEvent.click(within(dialog).getByRole('button', { name: 'Delete' }))
    })
    // (A DELETE answered 409 is tried once more by the API client, as any idempotent request.)
    expect(new Set(writes().map((each) => `${each.method} ${each.path}`))).toEqual(
      new Set([`DELETE /api/places/${ROOM}`]),
    )
    const alert = await screen.findByRole('alert')
    expect(alert.textContent).toMatch(/^“Accueil” could not be deleted\. It is still in use: places under it/)
    expect(screen.getByRole('link', { name: 'Accueil' })).toBeTruthy()
  })
})
