import 'fake-indexeddb/auto'
import { waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, useLocale } from '../../tests/render.tsx'
import { resetOfflineDbForTests } from './db.ts'
import { drain, enqueue, SERVER_ERROR_LIMIT } from './outbox.ts'
import { SyncPanel } from './SyncPanel.tsx'

const USER = 'user-1'

beforeEach(async () => {
  await resetOfflineDbForTests()
})

afterEach(async () => {
  await useLocale('en')
})

describe('an item given up after server errors, in the sync panel', () => {
  it('shows why in the reader’s language, and offers to retry or discard it', async () => {
    await useLocale('fr')
    await enqueue({ kind: 'scan', userId: USER, organizationId: 'org-1', value: 'P-1', label: 'AGC-00042' })
    const serverError = async () =>
      ({ kind: 'serverError', status: 500, code: 'internal_error', message: 'An error occurred.' }) as const
    for (let i = 0; i < SERVER_ERROR_LIMIT; i++) await drain(serverError, { userId: USER, force: true })

    const { container } = renderWithProviders(<SyncPanel userId={USER} onSendNow={() => {}} />)
    await waitFor(() => expect(container.querySelector('[data-status="failed"]')).not.toBeNull())
    const row = container.querySelector<HTMLElement>('[data-status="failed"]')!
    expect(row.textContent).toContain('AGC-00042')
    // The reason is the app's own sentence in French with the server's status, not the server's English.
    expect(row.textContent).toContain('Le serveur a échoué')
    expect(row.textContent).toContain('500')
    expect(row.textContent).toContain('Échec')
    expect(row.textContent).not.toContain('An error occurred.')
    expect(within(row).getAllByRole('button')).toHaveLength(2) // retry, discard
  })

  it('shows a pairing refused because its tag was taken meanwhile, in the reader’s language', async () => {
    await useLocale('fr')
    await enqueue({
      kind: 'pairCreate',
      userId: USER,
      organizationId: 'org-1',
      value: 'tag-1',
      label: 'AGC-00042 → Cave',
      pairing: { name: 'Cave', keyName: 'AGC-00042' },
    })
    const taken = async () =>
      ({ kind: 'refused', status: 409, code: 'tag_taken', message: 'This tag is already on a key.' }) as const
    await drain(taken, { userId: USER })
    const { container } = renderWithProviders(<SyncPanel userId={USER} onSendNow={() => {}} />)
    await waitFor(() => expect(container.querySelector('[data-status="failed"]')).not.toBeNull())
    const row = container.querySelector<HTMLElement>('[data-status="failed"]')!
    expect(row.textContent).toContain('Nouveau trousseau avec une étiquette scannée · AGC-00042 → Cave')
    expect(row.textContent).toContain('mise sur une clé entre-temps')
    expect(row.textContent).toContain('Refusé')
  })
})
