import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { KeychainPicker } from './KeychainPicker.tsx'

const ORG = '00000000-0000-4000-8000-0000000000a1'
const CAVE = '00000000-0000-4000-8000-0000000000c1'
const BUREAU = '00000000-0000-4000-8000-0000000000c2'

const summary = (id: string, name: string, tagCodes: string[]) => ({
  id,
  name,
  custodian: null,
  keyCount: tagCodes.length,
  tagCodes,
  updatedAt: '2026-11-01T10:00:00.000Z',
})
const tag = (code: string, keychain: { id: string; name: string } | null) => ({
  id: '00000000-0000-4000-8000-0000000000d1',
  publicId: 'abcdefghijklmnopqrst',
  code,
  name: 'Tag',
  foregroundColor: '#111827',
  backgroundColor: '#fde68a',
  url: 'http://localhost/tags/abcdefghijklmnopqrst',
  key: keychain
    ? {
        id: '00000000-0000-4000-8000-0000000000e1',
        name: 'Porte',
        keychainId: keychain.id,
        keychainName: keychain.name,
      }
    : null,
  createdAt: '2026-11-01T10:00:00.000Z',
})
const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

/** The server: keychains whose name holds `q`, and the tag list's exact code search. */
function server() {
  const keychains = [summary(CAVE, 'Cave 7', ['DEM-00007']), summary(BUREAU, 'Bureau 2', ['DEM-00002'])]
  const tags = [tag('DEM-00002', { id: BUREAU, name: 'Bureau 2' }), tag('DEM-00009', null)]
  return vi.fn(async (input: string) => {
    const url = new URL(input, 'http://localhost')
    const q = url.searchParams.get('q') ?? ''
    if (url.pathname === '/api/keychains') {
      const data = keychains.filter((each) => each.name.toLowerCase().includes(q.toLowerCase()))
      return json({ data, nextCursor: null })
    }
    if (url.pathname === '/api/tags')
      return json({ data: tags.filter((each) => each.code === q), nextCursor: null })
    return new Response('{}', { status: 404 })
  })
}

beforeAll(async () => {
  await useLocale('en')
})

afterEach(() => {
  vi.unstubAllGlobals()
})

function renderPicker() {
  const fetchMock = server()
  vi.stubGlobal('fetch', fetchMock)
  const onPick = vi.fn()
  renderWithProviders(<KeychainPicker organizationId={ORG} onPick={onPick} />)
  const field = screen.getByLabelText('Keychain') as HTMLInputElement
  const type = async (text: string) => {
    await act(async () => fireEvent.change(field, { target: { value: text } }))
  }
  const enter = async () => {
    await act(async () => fireEvent.submit(field.form!))
  }
  return { fetchMock, onPick, type, enter }
}

describe('the keychain picker of a new transfer', () => {
  it('asks the server as one types and picks the keychain clicked', async () => {
    const { fetchMock, onPick, type } = renderPicker()
    await type('cav')
    // Before typing, the first keychains show; once the search has settled, the server's matches only.
    await waitFor(() => {
      const found = screen.getByRole('list', { name: 'Keychains found' }).textContent
      expect(found).toContain('Cave 7')
      expect(found).not.toContain('Bureau 2')
    })
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('q=cav'))).toBe(true)
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Cave 7/ })))
    expect(onPick).toHaveBeenCalledWith({ id: CAVE, name: 'Cave 7' })
  })

  it('picks a tag’s keychain on Enter, the code typed in any case as a scanner sends it', async () => {
    const { onPick, type, enter } = renderPicker()
    await type('dem-00002')
    await enter()
    await waitFor(() => expect(onPick).toHaveBeenCalledWith({ id: BUREAU, name: 'Bureau 2' }))
    expect(onPick).toHaveBeenCalledOnce()
  })

  it('says when a tag is on no keychain, and picks nothing on Enter', async () => {
    const { onPick, type, enter } = renderPicker()
    await type('DEM-00009')
    await enter()
    await screen.findByText('This tag is not on a keychain of the organization.')
    expect(onPick).not.toHaveBeenCalled()
  })

  it('picks on Enter only when one keychain is found', async () => {
    const { onPick, type, enter } = renderPicker()
    await type('e')
    await enter()
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2))
    expect(onPick).not.toHaveBeenCalled()
    await type('bur')
    await enter()
    await waitFor(() => expect(onPick).toHaveBeenCalledWith({ id: BUREAU, name: 'Bureau 2' }))
  })
})
