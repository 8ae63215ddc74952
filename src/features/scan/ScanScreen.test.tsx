import { act, fireEvent, screen } from '@testing-library/react'
import { lazy } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ScanResult } from '../../../contract/scans.ts'
import { renderWithProviders, renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { ApiError } from '../../lib/api.ts'
import { ScanScreen } from './ScanScreen.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const unknown: ScanResult = { status: 'unknown', scanId: 's1', value: 'ZZ-00001' }

describe('scan screen', () => {
  it('sends a typed code (as a hardware scanner does, ending with Enter), trimmed, and shows the answer', async () => {
    const send = vi.fn(async () => ({ result: unknown, queued: true }))
    const renderResult = vi.fn(() => <p>result shown</p>)
    renderWithProviders(<ScanScreen renderResult={renderResult} send={send} />)
    const input = screen.getByLabelText('Tag code or link')
    fireEvent.change(input, { target: { value: '  zz-00001 ' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    expect(await screen.findByText('result shown')).toBeTruthy()
    expect(send).toHaveBeenCalledExactlyOnceWith('zz-00001')
    expect(renderResult).toHaveBeenCalledWith(unknown, true)
    expect((input as HTMLInputElement).value).toBe('')
  })

  it('leads to receiving a keychain from another phone, for the roles that may', async () => {
    await useLocale('en')
    const { unmount } = await renderWithRouter(
      <ScanScreen renderResult={() => null} send={vi.fn()} canReceive />,
    )
    expect(screen.getByRole('link', { name: 'Receive a keychain' }).getAttribute('href')).toBe(
      '/en/app/handover',
    )
    unmount()
    await renderWithRouter(<ScanScreen renderResult={() => null} send={vi.fn()} />)
    expect(screen.queryByRole('link', { name: 'Receive a keychain' })).toBeNull()
  })

  it('says when the scan could not be sent', async () => {
    const send = vi.fn(async () => {
      throw new ApiError(0, 'network_error', 'The server could not be reached.')
    })
    renderWithProviders(<ScanScreen renderResult={() => null} send={send} />)
    const input = screen.getByLabelText('Tag code or link')
    fireEvent.change(input, { target: { value: 'AGC-00042' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    expect((await screen.findByRole('alert')).textContent).toContain('AGC-00042')
  })

  it('explains that the camera needs HTTPS instead of failing silently', async () => {
    vi.stubGlobal('isSecureContext', false)
    renderWithProviders(<ScanScreen renderResult={() => null} send={vi.fn()} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start the camera' }))
    })
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-camera-problem')).toBe('insecure')
  })

  it('shows the result in a sheet, moves the focus to its heading, and dismisses it for the next tag', async () => {
    const send = vi.fn(async () => ({ result: unknown, queued: false }))
    renderWithProviders(
      <ScanScreen renderResult={() => <h2>Cave du 14</h2>} send={send} placeholder="AGC-00042" />,
    )
    const input = screen.getByLabelText('Tag code or link') as HTMLInputElement
    expect(input.placeholder).toBe('AGC-00042')
    expect(screen.queryByRole('region', { name: 'Scan result' })).toBeNull()
    fireEvent.change(input, { target: { value: 'AGC-00001' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    const sheet = await screen.findByRole('region', { name: 'Scan result' })
    const heading = screen.getByRole('heading', { name: 'Cave du 14' })
    expect(sheet.contains(heading)).toBe(true)
    expect(document.activeElement).toBe(heading)
    // A hardware scanner types the next code wherever the focus is: into the scan field.
    fireEvent.keyDown(heading, { key: 'A' })
    expect(document.activeElement).toBe(input)
    fireEvent.click(screen.getByRole('button', { name: 'Scan the next tag' }))
    expect(screen.queryByRole('region', { name: 'Scan result' })).toBeNull()
    expect(document.activeElement).toBe(input)
  })

  it('closes the sheet with Escape, and keeps a field that took the focus in the result', async () => {
    const send = vi.fn(async () => ({ result: unknown, queued: true }))
    renderWithProviders(
      <ScanScreen
        renderResult={() => (
          <label>
            Name
            {/* biome-ignore lint/a11y/noAutofocus: as the pairing's name field does */}
            <input autoFocus />
          </label>
        )}
        send={send}
      />,
    )
    const input = screen.getByLabelText('Tag code or link') as HTMLInputElement
    expect(input.placeholder).toBe('ABC-00042')
    fireEvent.change(input, { target: { value: 'AGC-00001' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    const name = await screen.findByLabelText('Name')
    expect(document.activeElement).toBe(name)
    // Typing in that field stays there.
    fireEvent.keyDown(name, { key: 'A' })
    expect(document.activeElement).toBe(name)
    fireEvent.keyDown(name, { key: 'Escape' })
    expect(screen.queryByRole('region', { name: 'Scan result' })).toBeNull()
  })

  it('moves the focus to a result whose parts load lazily, once it is shown', async () => {
    let resolve: (module: { default: () => React.JSX.Element }) => void = () => {}
    const Card = lazy(() => new Promise<{ default: () => React.JSX.Element }>((done) => (resolve = done)))
    const send = vi.fn(async () => ({ result: unknown, queued: false }))
    renderWithProviders(<ScanScreen renderResult={() => <Card />} send={send} />)
    const input = screen.getByLabelText('Tag code or link')
    fireEvent.change(input, { target: { value: 'AGC-00001' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    expect(screen.queryByRole('heading', { level: 2 })).toBeNull()
    await act(async () => {
      resolve({ default: () => <h2>Cave du 14</h2> })
    })
    expect(document.activeElement).toBe(await screen.findByRole('heading', { name: 'Cave du 14' }))
  })
})
