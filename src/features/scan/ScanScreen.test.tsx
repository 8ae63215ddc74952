import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '../../../tests/render.tsx'
import { ScanScreen } from './ScanScreen.tsx'

afterEach(() => {
  vi.unstubAllGlobals()
})

const unknown = { status: 'unknown', scanId: 's1', value: 'ZZ-00001' }

describe('scan screen', () => {
  it('sends a typed code (as a hardware scanner does, ending with Enter) with an idempotency key', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify(unknown), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    )
    vi.stubGlobal('fetch', fetchMock)
    const renderResult = vi.fn(() => <p>result shown</p>)
    renderWithProviders(<ScanScreen renderResult={renderResult} />)
    const input = screen.getByLabelText('Tag code or link')
    fireEvent.change(input, { target: { value: '  zz-00001 ' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    expect(await screen.findByText('result shown')).toBeTruthy()
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe('/api/scans')
    expect(JSON.parse(init.body as string)).toEqual({ value: 'zz-00001' })
    const headers = init.headers as Record<string, string>
    expect(headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(renderResult).toHaveBeenCalledWith(unknown, false)
    expect((input as HTMLInputElement).value).toBe('')
  })

  it('says when the scan could not be sent', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch')
      }),
    )
    renderWithProviders(<ScanScreen renderResult={() => null} />)
    const input = screen.getByLabelText('Tag code or link')
    fireEvent.change(input, { target: { value: 'AGC-00042' } })
    await act(async () => {
      fireEvent.submit(input.closest('form')!)
    })
    expect((await screen.findByRole('alert')).textContent).toContain('AGC-00042')
  })

  it('explains that the camera needs HTTPS instead of failing silently', async () => {
    vi.stubGlobal('isSecureContext', false)
    renderWithProviders(<ScanScreen renderResult={() => null} />)
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Start the camera' }))
    })
    const alert = await screen.findByRole('alert')
    expect(alert.getAttribute('data-camera-problem')).toBe('insecure')
  })
})
