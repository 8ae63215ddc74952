import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { AbilityProvider, useAbility } from './ability.tsx'

function Probe() {
  const ability = useAbility()
  return <p>{ability.can('update', 'member') ? 'may edit members' : 'may not edit members'}</p>
}

describe('ability context', () => {
  it('allows nothing without a provider', () => {
    render(<Probe />)
    expect(screen.getByText('may not edit members')).toBeTruthy()
  })

  it('follows the permissions it is given', () => {
    const { rerender } = render(
      <AbilityProvider permissions={['update__member']}>
        <Probe />
      </AbilityProvider>,
    )
    expect(screen.getByText('may edit members')).toBeTruthy()
    rerender(
      <AbilityProvider permissions={['read__member']}>
        <Probe />
      </AbilityProvider>,
    )
    expect(screen.getByText('may not edit members')).toBeTruthy()
  })
})
