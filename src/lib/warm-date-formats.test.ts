import { afterEach, describe, expect, it, vi } from 'vitest'

// A fresh copy of the module: its formatters are kept for the page's life, and other files may have built them.
async function freshFormat() {
  vi.resetModules()
  return import('./format.ts')
}

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe('warmDateFormats', () => {
  it('builds the first screen’s date formatters after the boot’s task, each in a task of its own, once', async () => {
    const { warmDateFormats, formatDateTime } = await freshFormat()
    vi.useFakeTimers()
    const built = vi.spyOn(Intl, 'DateTimeFormat')
    warmDateFormats('fr')
    // Nothing in the boot's own task: two tasks queued, one per formatter.
    expect(built).not.toHaveBeenCalled()
    expect(vi.getTimerCount()).toBe(2)

    vi.runAllTimers()
    // The device's zone read through the default formatter, the day in French in that zone, the day and time.
    expect(built.mock.calls).toEqual([
      [],
      ['fr-FR', { dateStyle: 'medium', timeZone: expect.any(String) }],
      ['fr-FR', { dateStyle: 'medium', timeStyle: 'short' }],
    ])

    // The screen that formats afterwards builds nothing more.
    expect(formatDateTime('2026-11-29T08:05:00Z', 'fr')).toMatch(/29 nov\. 2026/)
    expect(built).toHaveBeenCalledTimes(3)
  })
})
