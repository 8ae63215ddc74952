import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createToastStore, TOAST_LEAVE_MS, TOAST_STACK_DELAY_MS } from './store.ts'

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('toast store', () => {
  it('applies the defaults: info, closable, top-right', () => {
    const store = createToastStore()
    store.add({ summary: 'Saved' })
    expect(store.getSnapshot()[0]).toMatchObject({
      severity: 'info',
      closable: true,
      position: 'top-right',
      leaving: false,
    })
  })

  it('closes at the end of its life, after the leave animation', () => {
    const store = createToastStore()
    store.add({ summary: 'Saved', life: 3000 })
    vi.advanceTimersByTime(2999)
    expect(store.getSnapshot()).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(store.getSnapshot()[0]?.leaving).toBe(true)
    vi.advanceTimersByTime(TOAST_LEAVE_MS)
    expect(store.getSnapshot()).toHaveLength(0)
  })

  it('stays without a life until closed', () => {
    const store = createToastStore()
    const id = store.add({ summary: 'Sticky', severity: 'warn' })
    vi.advanceTimersByTime(60_000)
    expect(store.getSnapshot()).toHaveLength(1)
    store.close(id)
    vi.advanceTimersByTime(TOAST_LEAVE_MS)
    expect(store.getSnapshot()).toHaveLength(0)
  })

  it('staggers the toasts of one position by the stacking delay', () => {
    const store = createToastStore()
    store.add({ summary: 'First', life: 1000 })
    store.add({ summary: 'Second', life: 1000 })
    store.add({ summary: 'Elsewhere', life: 1000, position: 'bottom-center' })
    expect(store.getSnapshot().map((toast) => toast.index)).toEqual([0, 1, 0])
    vi.advanceTimersByTime(1000)
    expect(
      store
        .getSnapshot()
        .filter((toast) => toast.leaving)
        .map((toast) => toast.summary),
    ).toEqual(['First', 'Elsewhere'])
    vi.advanceTimersByTime(TOAST_STACK_DELAY_MS)
    expect(store.getSnapshot().find((toast) => toast.summary === 'Second')?.leaving).toBe(true)
  })

  it('clears one group and leaves the others', () => {
    const store = createToastStore()
    store.add({ summary: 'A', group: 'sync' })
    store.add({ summary: 'B', group: 'orders' })
    store.clear('sync')
    vi.advanceTimersByTime(TOAST_LEAVE_MS)
    expect(store.getSnapshot().map((toast) => toast.summary)).toEqual(['B'])
  })

  it('replaces a toast added again with the same id, with a fresh life', () => {
    const store = createToastStore()
    store.add({ id: 'offline', summary: 'Offline', life: 1000 })
    vi.advanceTimersByTime(900)
    store.add({ id: 'offline', summary: 'Still offline', life: 1000 })
    expect(store.getSnapshot().map((toast) => toast.summary)).toEqual(['Still offline'])
    vi.advanceTimersByTime(500)
    expect(store.getSnapshot()[0]?.leaving).toBe(false)
  })

  it('keeps the defaults when a field is given as undefined', () => {
    const store = createToastStore()
    store.add({ summary: 'x', severity: undefined, closable: undefined })
    expect(store.getSnapshot()[0]).toMatchObject({ severity: 'info', closable: true })
  })
})
