import { act, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderWithProviders, useLocale } from '../../tests/render.tsx'
import { SyncProgressLine } from './SyncProgressLine.tsx'
import { reportSyncProgress } from './sync-progress.ts'

afterEach(async () => {
  act(() => reportSyncProgress(null))
  await useLocale('en')
})

describe('the first sync’s progress', () => {
  it('shows how far it has come, in the reader’s language, and goes once it ends', async () => {
    await useLocale('fr')
    renderWithProviders(<SyncProgressLine />)
    expect(screen.queryByRole('status')).toBeNull()
    act(() => reportSyncProgress({ done: 2_100, total: 5_000 }))
    expect(screen.getByRole('status').textContent).toBe('Préparation hors ligne : 42\u00a0%')
    act(() => reportSyncProgress(null))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('speaks English under /en', () => {
    renderWithProviders(<SyncProgressLine />)
    act(() => reportSyncProgress({ done: 1, total: 4 }))
    expect(screen.getByRole('status').textContent).toBe('Preparing offline use: 25%')
  })
})
