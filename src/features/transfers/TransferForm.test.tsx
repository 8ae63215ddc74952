import { act, fireEvent, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Member } from '../../../contract/organizations.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { TransferForm } from './TransferForm.tsx'

const member: Member = {
  id: '00000000-0000-4000-8000-0000000000a1',
  email: 'yanis@example.com',
  firstName: 'Yanis',
  lastName: 'Morel',
  role: 'MEMBER',
  status: 'ACTIVE',
  joinedAt: '2026-01-01T00:00:00.000Z',
}
const custodian: Member = { ...member, id: '00000000-0000-4000-8000-0000000000a2', firstName: 'Ines' }
const disabled: Member = {
  ...member,
  id: '00000000-0000-4000-8000-0000000000a3',
  firstName: 'Old',
  status: 'DISABLED',
}

beforeAll(async () => {
  await useLocale('en')
})

afterEach(() => {
  vi.unstubAllGlobals()
})

function renderForm(onSubscriptionMissing = vi.fn()) {
  const onCreated = vi.fn()
  renderWithProviders(
    <TransferForm
      keychainId="00000000-0000-4000-8000-0000000000k1"
      members={[member, custodian, disabled]}
      custodianId={custodian.id}
      timeZone="Europe/Paris"
      onCreated={onCreated}
      onSubscriptionMissing={onSubscriptionMissing}
    />,
  )
  return { onCreated, form: screen.getByRole('form', { name: 'Authorize a transfer' }) }
}

async function submit(form: HTMLElement) {
  await act(async () => {
    fireEvent.submit(form)
  })
}

/** Picks the 10th of next month in the "To" field (the browser's own date input), and returns that day. */
async function pickReturnDay(): Promise<string> {
  const from = (screen.getByLabelText('From') as HTMLInputElement).value
  const [year, month] = from.split('-').map(Number) as [number, number]
  const next = month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`
  const day = `${next}-10`
  await act(async () => {
    fireEvent.change(screen.getByLabelText('To'), { target: { value: day } })
  })
  return day
}

describe('transfer form', () => {
  it('offers members and contacts who can receive it: not the custodian, not a disabled member', () => {
    renderForm()
    const options = within(screen.getByLabelText('Recipient')).getAllByRole('option')
    const labels = options.map((option) => option.textContent)
    expect(labels).toContain('Yanis Morel (Member)')
    expect(labels.some((label) => label?.startsWith('Ines'))).toBe(false)
    expect(labels.some((label) => label?.startsWith('Old'))).toBe(false)
    expect(labels.at(-1)).toBe('Someone else, by e-mail (invited as a contact)')
  })

  it('says what is missing before sending anything', async () => {
    const fetchMock = vi.fn()
    vi.stubGlobal('fetch', fetchMock)
    const { form } = renderForm()
    await submit(form)
    expect(screen.getByText('Choose who receives the keychain.')).toBeTruthy()
    expect(screen.getByText('Choose the day the keychain comes back.')).toBeTruthy()
    fireEvent.change(screen.getByLabelText('Recipient'), { target: { value: 'email' } })
    fireEvent.change(screen.getByLabelText("Recipient's e-mail"), { target: { value: 'not-an-address' } })
    await submit(form)
    expect(screen.getByText('Enter a valid e-mail address.')).toBeTruthy()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('sends the recipient by e-mail with the picked days, and shows the server’s reason when it refuses', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            error: {
              code: 'transfer_allowance_exceeded',
              message: 'All 3 transfers of this month are used; the allowance renews on 1 December 2026.',
              used: 3,
              allowance: 3,
              renewsAt: '2026-11-30T23:00:00.000Z',
            },
          }),
          { status: 402, headers: { 'Content-Type': 'application/json' } },
        ),
    )
    vi.stubGlobal('fetch', fetchMock)
    const { form, onCreated } = renderForm()
    fireEvent.change(screen.getByLabelText('Recipient'), { target: { value: 'email' } })
    fireEvent.change(screen.getByLabelText("Recipient's e-mail"), { target: { value: 'new@example.com' } })
    const returnDay = await pickReturnDay()
    const spelled = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeZone: 'UTC' }).format(
      new Date(`${returnDay}T00:00:00Z`),
    )
    expect(screen.getByText(spelled)).toBeTruthy()
    await submit(form)
    // The form also asks whether the days overlap another transfer (a GET); the authorization is the POST.
    const calls = fetchMock.mock.calls as unknown as [string, RequestInit][]
    const [url, init] = calls.find(([, request]) => request.method === 'POST')!
    expect(url).toBe('/api/keychains/00000000-0000-4000-8000-0000000000k1/transfers')
    expect(calls.filter(([, request]) => request.method === 'POST')).toHaveLength(1)
    const body = JSON.parse(init.body as string)
    expect(body.recipient).toEqual({ kind: 'email', email: 'new@example.com', locale: 'en' })
    expect(body.fromDate).toMatch(/^\d{4}-\d{2}-\d{2}$/)
    expect(body.toDate).toMatch(/^\d{4}-\d{2}-10$/)
    expect(body.toDate > body.fromDate).toBe(true)
    expect((await screen.findByRole('alert')).textContent).toContain('All 3 transfers of this month are used')
    expect(onCreated).not.toHaveBeenCalled()
  })

  it('hands over to the subscription banner when the server says a plan is needed', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({ error: { code: 'subscription_required', message: 'A plan is needed.' } }),
            {
              status: 402,
              headers: { 'Content-Type': 'application/json' },
            },
          ),
      ),
    )
    const onSubscriptionMissing = vi.fn()
    const { form } = renderForm(onSubscriptionMissing)
    fireEvent.change(screen.getByLabelText('Recipient'), { target: { value: member.id } })
    await pickReturnDay()
    await submit(form)
    expect(onSubscriptionMissing).toHaveBeenCalledOnce()
  })
})
