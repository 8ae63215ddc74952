import { render, screen } from '@testing-library/react'
import { Profiler } from 'react'
import { describe, expect, it } from 'vitest'
import { DeferredMount } from './DeferredMount.tsx'

describe('DeferredMount', () => {
  it('commits what is around it first, and its children in a later render', async () => {
    const commits: Array<{ shell: boolean; screen: boolean }> = []
    render(
      <Profiler
        id="page"
        onRender={() =>
          commits.push({
            shell: document.querySelector('#shell') !== null,
            screen: document.querySelector('#screen') !== null,
          })
        }
      >
        <p id="shell">Menu</p>
        <DeferredMount>
          <p id="screen">Keychains</p>
        </DeferredMount>
      </Profiler>,
    )
    await screen.findByText('Keychains')
    expect(commits[0]).toEqual({ shell: true, screen: false })
    expect(commits.at(-1)).toEqual({ shell: true, screen: true })
  })
})
