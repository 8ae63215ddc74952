import { act, render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useUnsavedChanges } from '../lib/unsaved.ts'
import { whenSafe } from './reload.ts'

function Form({ dirty }: { dirty: boolean }) {
  useUnsavedChanges(dirty)
  return null
}

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('applying a new build at a safe moment', () => {
  it('applies at once when nothing is being edited', () => {
    const apply = vi.fn()
    whenSafe(apply)
    expect(apply).toHaveBeenCalledTimes(1)
  })

  it('waits while a form has unsaved edits, then applies once they are saved', () => {
    const apply = vi.fn()
    const { rerender } = render(<Form dirty />)
    whenSafe(apply)
    act(() => {
      vi.advanceTimersByTime(60_000)
    })
    expect(apply).not.toHaveBeenCalled()
    rerender(<Form dirty={false} />)
    act(() => {
      vi.advanceTimersByTime(5_000)
    })
    expect(apply).toHaveBeenCalledTimes(1)
  })

  it('treats a form that went away as no longer edited', () => {
    const apply = vi.fn()
    const { unmount } = render(<Form dirty />)
    whenSafe(apply)
    unmount()
    act(() => {
      vi.advanceTimersByTime(5_000)
    })
    expect(apply).toHaveBeenCalledTimes(1)
  })
})
