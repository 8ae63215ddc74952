import { fireEvent, screen } from '@testing-library/react'
import * as v from 'valibot'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { SignatureSchema } from '../../../contract/receipts.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { SignaturePad, signaturePath } from './SignaturePad.tsx'

beforeAll(async () => {
  await useLocale('en')
})

/** The pad laid out 300 × 100 CSS pixels at (10, 20): half the signature box's size. */
function pad() {
  const onChange = vi.fn()
  renderWithProviders(<SignaturePad onChange={onChange} />)
  const canvas = screen.getByRole('img', { name: /Signature pad/ })
  canvas.getBoundingClientRect = () =>
    ({ left: 10, top: 20, width: 300, height: 100, right: 310, bottom: 120, x: 10, y: 20 }) as DOMRect
  return { canvas, onChange }
}

const at = (x: number, y: number, pointerType = 'mouse') => ({
  clientX: x,
  clientY: y,
  pointerId: 1,
  pointerType,
})

describe('the signature pad', () => {
  it('turns pointer strokes (mouse, touch) into path data the server takes', () => {
    const { canvas, onChange } = pad()
    fireEvent.pointerDown(canvas, at(20, 30))
    fireEvent.pointerMove(canvas, at(60, 70))
    fireEvent.pointerMove(canvas, at(110, 40))
    fireEvent.pointerUp(canvas, at(110, 40))
    // A second stroke with a finger, leaving the box: kept inside it.
    fireEvent.pointerDown(canvas, at(200, 100, 'touch'))
    fireEvent.pointerMove(canvas, at(400, 200, 'touch'))
    fireEvent.pointerUp(canvas, at(400, 200, 'touch'))
    const path = onChange.mock.calls.at(-1)![0] as string
    expect(path).toBe('M20 20 L100 100 L200 40 M380 160 L600 200')
    expect(v.is(SignatureSchema, path)).toBe(true)
  })

  it('ignores moves without a pressed pointer, and clears to nothing', () => {
    const { canvas, onChange } = pad()
    fireEvent.pointerMove(canvas, at(60, 70))
    expect(onChange).not.toHaveBeenCalled()
    fireEvent.pointerDown(canvas, at(40, 40))
    fireEvent.pointerUp(canvas, at(40, 40))
    expect(onChange).toHaveBeenLastCalledWith('M60 40 L60 40')
    fireEvent.click(screen.getByRole('button', { name: 'Clear the signature' }))
    expect(onChange).toHaveBeenLastCalledWith(null)
    // A new stroke after clearing starts a new signature.
    fireEvent.pointerDown(canvas, at(10, 20))
    fireEvent.pointerUp(canvas, at(10, 20))
    expect(onChange).toHaveBeenLastCalledWith('M0 0 L0 0')
  })

  it('writes no path for no strokes', () => {
    expect(signaturePath([])).toBeNull()
    expect(signaturePath([[]])).toBeNull()
  })
})
