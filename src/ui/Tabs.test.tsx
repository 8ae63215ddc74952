import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { Tabs, tabAfterKey } from './Tabs.tsx'

function Example() {
  const [selected, setSelected] = useState('members')
  return (
    <Tabs
      label="Organization"
      selected={selected}
      onSelect={setSelected}
      items={[
        { id: 'members', label: 'Members', content: <p>Member list</p> },
        { id: 'orders', label: 'Orders', content: <p>Order list</p> },
        { id: 'plan', label: 'Plan', content: <p>Plan details</p> },
      ]}
    />
  )
}

describe('tabs', () => {
  it('moves with the arrow keys, wrapping, and with Home and End', () => {
    expect(tabAfterKey('ArrowRight', 0, 3)).toBe(1)
    expect(tabAfterKey('ArrowRight', 2, 3)).toBe(0)
    expect(tabAfterKey('ArrowLeft', 0, 3)).toBe(2)
    expect(tabAfterKey('Home', 2, 3)).toBe(0)
    expect(tabAfterKey('End', 0, 3)).toBe(2)
    expect(tabAfterKey('Enter', 1, 3)).toBeNull()
  })

  it('shows the selected panel only, labelled by its tab, with one tab in the tab order', () => {
    render(<Example />)
    expect(screen.getByRole('tablist', { name: 'Organization' })).toBeTruthy()
    const tab = screen.getByRole('tab', { name: 'Members' })
    expect(tab.getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('tabpanel', { name: 'Members' }).textContent).toBe('Member list')
    expect(screen.queryByText('Order list')).toBeNull()
    expect(screen.getAllByRole('tab').map((item) => item.tabIndex)).toEqual([0, -1, -1])
  })

  it('selects by click and by keyboard, moving the focus along', () => {
    render(<Example />)
    fireEvent.click(screen.getByRole('tab', { name: 'Orders' }))
    expect(screen.getByRole('tabpanel').textContent).toBe('Order list')
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Orders' }), { key: 'ArrowRight' })
    expect(screen.getByRole('tabpanel').textContent).toBe('Plan details')
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Plan' }))
    fireEvent.keyDown(screen.getByRole('tab', { name: 'Plan' }), { key: 'Home' })
    expect(screen.getByRole('tab', { name: 'Members' }).getAttribute('aria-selected')).toBe('true')
  })
})
