import { describe, expect, it } from 'vitest'
import { focusOnMount } from './focus-on-mount.ts'

describe('focusOnMount', () => {
  it('focuses the element it is given, and ignores the null of an unmount', () => {
    const input = document.createElement('input')
    document.body.append(input)
    focusOnMount(input)
    expect(document.activeElement).toBe(input)
    expect(() => focusOnMount(null)).not.toThrow()
    input.remove()
  })
})
