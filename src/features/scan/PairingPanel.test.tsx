import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { tag } from '../../../tests/offline-rows.ts'
import { renderWithProviders } from '../../../tests/render.tsx'
import { ApiError } from '../../lib/api.ts'
import { PairingPanel, PairingSessionSummary } from './PairingPanel.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const FREE = tag('AGC-00050', 'freefreefreefreefree', null)
const props = { tag: FREE, organizationId: 'org', canCreate: true, canAttach: true }

describe('pairing a scanned free tag', () => {
  it('in a session: the name field has the focus, Enter creates the keychain, and the pairing is reported', async () => {
    const pair = vi.fn(async () => ({ keychainId: 'kc-1', keychainName: 'Cave 7', queued: false }))
    const onPaired = vi.fn()
    renderWithProviders(<PairingPanel {...props} session pair={pair} onPaired={onPaired} />)
    const name = screen.getByLabelText('Name of the new keychain')
    expect(document.activeElement).toBe(name)
    // One step: the name, then Enter (no choice to make in a session).
    expect(screen.queryByRole('button', { name: 'Existing keychain' })).toBeNull()
    fireEvent.change(name, { target: { value: ' Cave 7 ' } })
    await act(async () => {
      fireEvent.submit(name.closest('form')!)
    })
    expect(pair).toHaveBeenCalledExactlyOnceWith({ kind: 'create', tag: FREE, name: 'Cave 7' })
    expect(onPaired).toHaveBeenCalledWith({
      keychainId: 'kc-1',
      keychainName: 'Cave 7',
      queued: false,
      code: 'AGC-00050',
    })
    expect((await screen.findByRole('status')).textContent).toContain('AGC-00050')
  })

  it('refuses a name the server would refuse (a tab in it) before anything waits in the outbox', async () => {
    const pair = vi.fn(async () => ({ keychainId: 'kc-1', keychainName: 'x', queued: true }))
    renderWithProviders(<PairingPanel {...props} session pair={pair} onPaired={vi.fn()} />)
    const name = screen.getByLabelText('Name of the new keychain')
    fireEvent.change(name, { target: { value: 'Cave\t7' } })
    expect(
      screen.getByText('Line breaks, tabs and other control characters are not allowed here.'),
    ).toBeTruthy()
    expect(name.getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('button', { name: 'Create' }).hasAttribute('disabled')).toBe(true)
    await act(async () => {
      fireEvent.submit(name.closest('form')!)
    })
    expect(pair).not.toHaveBeenCalled()
    fireEvent.change(name, { target: { value: 'Cave 7' } })
    expect(name.getAttribute('aria-invalid')).toBeNull()
  })

  it('says when the tag was taken meanwhile, and lets the person try again', async () => {
    const pair = vi.fn(async () => {
      throw new ApiError(409, 'tag_taken', 'This tag is already on a key.')
    })
    renderWithProviders(<PairingPanel {...props} session={false} pair={pair} onPaired={vi.fn()} />)
    const name = screen.getByLabelText('Name of the new keychain')
    fireEvent.change(name, { target: { value: 'Cave' } })
    await act(async () => {
      fireEvent.submit(name.closest('form')!)
    })
    expect((await screen.findByRole('alert')).textContent).toContain('already on a key')
  })

  it('outside a session offers an existing keychain too, searched as one types', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        Response.json({
          data: [
            {
              id: 'kc-9',
              name: 'Garage',
              custodian: null,
              keyCount: 0,
              tagCodes: [],
              updatedAt: '2026-01-01T00:00:00Z',
            },
          ],
          nextCursor: null,
        }),
      ),
    )
    const pair = vi.fn(async () => ({ keychainId: 'kc-9', keychainName: 'Garage', queued: true }))
    renderWithProviders(<PairingPanel {...props} session={false} pair={pair} onPaired={vi.fn()} />)
    fireEvent.click(screen.getByRole('button', { name: 'Existing keychain' }))
    fireEvent.change(screen.getByLabelText('Find a keychain by name'), { target: { value: 'gar' } })
    const choice = await screen.findByRole('button', { name: 'Add to “Garage”' })
    await act(async () => {
      fireEvent.click(choice)
    })
    expect(pair).toHaveBeenCalledExactlyOnceWith({
      kind: 'attach',
      tag: FREE,
      keychain: expect.objectContaining({ id: 'kc-9', name: 'Garage' }),
    })
    expect(await screen.findByText(/it will be sent when the network returns/)).toBeTruthy()
  })

  it('counts the tags paired in the session', () => {
    renderWithProviders(
      <PairingSessionSummary
        paired={[
          { code: 'AGC-00001', keychainId: 'a', keychainName: 'A', queued: false },
          { code: 'AGC-00002', keychainId: 'b', keychainName: 'B', queued: true },
        ]}
      />,
    )
    expect(screen.getByRole('status').textContent).toBe('Tags paired in this session: 2')
    expect(screen.getByText(/waiting to sync/)).toBeTruthy()
  })
})
