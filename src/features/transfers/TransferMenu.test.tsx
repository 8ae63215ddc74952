import { act, fireEvent, screen } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { TransferMenu } from './TransferMenu.tsx'

beforeAll(async () => {
  await useLocale('en')
})

function renderMenu() {
  const cancel = vi.fn()
  const other = vi.fn()
  renderWithProviders(
    <>
      <TransferMenu
        label="More actions for the transfer of “Cave”"
        items={[
          { id: 'other', label: 'Open', onSelect: other },
          { id: 'cancel', label: 'Cancel the transfer', onSelect: cancel, tone: 'danger' },
        ]}
      />
      <p>Elsewhere</p>
    </>,
  )
  const button = screen.getByRole('button', { name: 'More actions for the transfer of “Cave”' })
  return { button, cancel, other }
}

describe('a transfer row’s menu', () => {
  it('opens on the first item, moves with the arrow keys, and closes on Escape back to its button', async () => {
    const { button } = renderMenu()
    expect(button.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('menu')).toBeNull()
    await act(async () => fireEvent.click(button))
    expect(button.getAttribute('aria-expanded')).toBe('true')
    const items = screen.getAllByRole('menuitem')
    expect(document.activeElement).toBe(items[0])
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(items[1])
    fireEvent.keyDown(items[1]!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(items[0])
    fireEvent.keyDown(items[0]!, { key: 'End' })
    expect(document.activeElement).toBe(items[1])
    fireEvent.keyDown(items[1]!, { key: 'ArrowUp' })
    expect(document.activeElement).toBe(items[0])
    await act(async () => fireEvent.keyDown(items[0]!, { key: 'Escape' }))
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(button)
  })

  it('runs the chosen item once and closes; a press outside closes without running anything', async () => {
    const { button, cancel, other } = renderMenu()
    await act(async () => fireEvent.click(button))
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'Cancel the transfer' })))
    expect(cancel).toHaveBeenCalledOnce()
    expect(other).not.toHaveBeenCalled()
    expect(screen.queryByRole('menu')).toBeNull()
    await act(async () => fireEvent.click(button))
    await act(async () => fireEvent.pointerDown(screen.getByText('Elsewhere')))
    expect(screen.queryByRole('menu')).toBeNull()
    expect(cancel).toHaveBeenCalledOnce()
  })

  it('shows nothing without items', () => {
    renderWithProviders(<TransferMenu label="More" items={[]} />)
    expect(screen.queryByRole('button')).toBeNull()
  })
})
