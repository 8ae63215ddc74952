import { act, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { WebhookEndpoint } from '../../../contract/webhooks.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { WebhooksScreen } from './WebhooksScreen.tsx'

const WEBHOOK: WebhookEndpoint = {
  id: '55555555-5555-4555-8555-555555555555',
  url: 'https://hooks.example.com/in',
  description: 'ERP',
  eventTypes: ['transfer.authorized'],
  enabled: true,
  secretHint: '…a1b2',
  createdAt: '2030-01-10T12:00:00.000Z',
  updatedAt: '2030-01-10T12:00:00.000Z',
}

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A server holding one webhook that refuses every write with `status` and `code`. */
function refusingServer(status: number, code: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: string, init?: RequestInit) => {
      if ((init?.method ?? 'GET') !== 'GET') {
        return Response.json({ error: { code, message: 'Refused.' } }, { status })
      }
      return Response.json({ data: [WEBHOOK] })
    }),
  )
}

const lastToast = () => toasts.getSnapshot().at(-1)

describe('the webhooks screen names the limit an organization reached', () => {
  it.each([
    ['fr', 'Une organisation a au plus 10 webhooks : supprimez-en un pour en ajouter un autre.'],
    ['en', 'An organization has at most 10 webhooks: delete one to add another.'],
  ] as const)('its ten webhooks (%s)', async (locale, detail) => {
    await useLocale(locale)
    refusingServer(409, 'webhook_limit_reached')
    await renderWithRouter(<WebhooksScreen organizationId="o1" />)
    await screen.findByRole('heading', { name: WEBHOOK.url })
    const [url] = screen.getAllByRole('textbox')
    await act(async () => {
      fireEvent.change(url!, { target: { value: 'https://hooks.example.com/more' } })
    })
    await act(async () => {
      fireEvent.submit(url!.closest('form')!)
    })
    await vi.waitFor(() => expect(lastToast()).toMatchObject({ severity: 'error', detail }))
  })

  it.each([
    ['fr', 'Une organisation peut envoyer 10 tests par minute : réessayez dans une minute.'],
    ['en', 'An organization may send 10 tests a minute: try again in a minute.'],
  ] as const)('its ten test sends a minute (%s)', async (locale, detail) => {
    await useLocale(locale)
    refusingServer(429, 'rate_limited')
    await renderWithRouter(<WebhooksScreen organizationId="o1" />)
    const send = await screen.findByRole('button', {
      name: locale === 'fr' ? 'Envoyer un test' : 'Send a test',
    })
    await act(async () => {
      fireEvent.click(send)
    })
    await vi.waitFor(() => expect(lastToast()).toMatchObject({ severity: 'error', detail }))
  })
})
