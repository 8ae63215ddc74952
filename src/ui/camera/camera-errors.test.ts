import { i18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import { CAMERA_PROBLEMS, cameraProblemOf } from './camera-errors.ts'

const ok = { secure: true, hasMediaDevices: true }
const domError = (name: string) => new DOMException('x', name)

describe('camera problems', () => {
  it('tells each failure apart', () => {
    expect(cameraProblemOf(domError('NotAllowedError'), ok)).toBe('denied')
    expect(cameraProblemOf(domError('NotFoundError'), ok)).toBe('noCamera')
    expect(cameraProblemOf('Camera not found.', ok)).toBe('noCamera')
    expect(cameraProblemOf(domError('NotReadableError'), ok)).toBe('inUse')
    expect(cameraProblemOf(domError('OverconstrainedError'), ok)).toBe('constraints')
    expect(cameraProblemOf(new TypeError('getUserMedia is not a function'), ok)).toBe('unsupported')
  })

  it('blames the page, not the camera, when not served over HTTPS', () => {
    expect(cameraProblemOf(domError('NotAllowedError'), { secure: false, hasMediaDevices: false })).toBe(
      'insecure',
    )
  })

  it('says the browser lacks the features when it has no media devices', () => {
    expect(cameraProblemOf(undefined, { secure: true, hasMediaDevices: false })).toBe('unsupported')
  })

  it('has a distinct message for every problem', () => {
    const texts = Object.values(CAMERA_PROBLEMS).map((descriptor) => i18n._(descriptor))
    expect(new Set(texts).size).toBe(texts.length)
    expect(texts.every((text) => text.length > 20)).toBe(true)
  })
})
