import { act, fireEvent, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '../../../tests/render.tsx'
import { createToastStore } from './store.ts'
import { Toaster } from './Toaster.tsx'

describe('Toaster', () => {
  it('shows summary and detail at the asked position, with the style class', () => {
    const store = createToastStore()
    renderWithProviders(<Toaster store={store} />)
    act(() => {
      store.add({
        summary: 'Saved',
        detail: 'All good',
        severity: 'success',
        position: 'bottom-left',
        styleClass: 'my-toast',
      })
    })
    const toast = screen.getByRole('status')
    expect(toast.textContent).toContain('Saved')
    expect(toast.textContent).toContain('All good')
    expect(toast.className).toContain('my-toast')
    expect(toast.closest('[data-position]')?.getAttribute('data-position')).toBe('bottom-left')
    expect((toast.closest('[data-position]') as HTMLElement).style.margin).toBe('20px')
  })

  it('announces errors as alerts and closes with its button', () => {
    const store = createToastStore()
    renderWithProviders(<Toaster store={store} />)
    act(() => {
      store.add({ summary: 'Action failed.', severity: 'error' })
    })
    expect(screen.getByRole('alert').textContent).toContain('Action failed.')
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    })
    expect(store.getSnapshot()[0]?.leaving).toBe(true)
  })

  it('has no close button when not closable', () => {
    const store = createToastStore()
    renderWithProviders(<Toaster store={store} />)
    act(() => {
      store.add({ summary: 'Working', closable: false })
    })
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull()
  })
})
