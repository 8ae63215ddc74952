import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ScanResult } from '../../../contract/scans.ts'
import { renderWithProviders } from '../../../tests/render.tsx'
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
})
