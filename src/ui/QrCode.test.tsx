import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { QrCode } from './QrCode.tsx'

describe('QR code', () => {
  it('draws the modules of the encoded URL on a square canvas with quiet zone', () => {
    render(<QrCode value="https://trousseau.example/tags/abcdefghijklmnopqrst" label="QR of AGC-00001" />)
    const svg = screen.getByRole('img', { name: 'QR of AGC-00001' })
    const [, , width, height] = (svg.getAttribute('viewBox') ?? '').split(' ').map(Number)
    expect(width).toBe(height)
    expect(width).toBeGreaterThanOrEqual(25 + 4)
    const path = svg.querySelector('path')?.getAttribute('d') ?? ''
    expect(path.match(/M/g)?.length ?? 0).toBeGreaterThan(200)
    expect(path.startsWith('M2 2')).toBe(true)
  })

  it('differs for different values', () => {
    const { container: a } = render(<QrCode value="https://x.test/tags/aaaaaaaaaaaaaaaaaaaa" label="a" />)
    const { container: b } = render(<QrCode value="https://x.test/tags/bbbbbbbbbbbbbbbbbbbb" label="b" />)
    expect(a.querySelector('path')?.getAttribute('d')).not.toBe(b.querySelector('path')?.getAttribute('d'))
  })
})
