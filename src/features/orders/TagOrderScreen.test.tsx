// The order form's proposal (the organization's alpha code and next number) arrives while the person may already
// be typing; and a start number nobody typed must follow the code even when the form is sent before the code's
// own answer came back (a quick hand ordered the previous code's numbers).
import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TagNumbering } from '../../../contract/commerce.ts'
import { renderWithProviders, useLocale } from '../../../tests/render.tsx'
import { TagOrderScreen } from './TagOrderScreen.tsx'

const ORGANIZATION = '00000000-0000-4000-8000-0000000000a1'
const PRICES = {
  currency: 'EUR',
  tagTiers: [
    { minQuantity: 10, unitAmountInCents: 250 },
    { minQuantity: 100, unitAmountInCents: 190 },
  ],
  shippingFeeInCents: 790,
  freeShippingThresholdInCents: 15000,
  vatRatePercent: 20,
  tagQuantity: { min: 10, max: 5000 },
}
const EMPTY_CART = {
  organizationId: ORGANIZATION,
  items: [],
  itemCount: 0,
  totals: {
    subtotalInCents: 0,
    discountInCents: 0,
    shippingInCents: 0,
    freeShipping: false,
    taxInCents: 0,
    totalInCents: 0,
  },
}

const numbering = (alphaCode: string, nextNumber: number): TagNumbering => ({
  alphaCode,
  nextNumber,
  codes: [{ first: `${alphaCode}-${String(nextNumber).padStart(5, '0')}`, last: '', count: 1 }],
})

/** The server: the organization's proposal (VOL, after its 100 tags) held until `propose()`; BOX is new. */
function server() {
  let propose: () => void = () => undefined
  const proposal = new Promise<void>((resolve) => {
    propose = resolve
  })
  const added: unknown[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const { pathname, searchParams } = new URL(url, 'http://localhost')
      if (pathname === '/api/prices') return Response.json(PRICES)
      if (pathname === '/api/cart/tag-numbers') {
        const code = searchParams.get('alphaCode')
        if (code === 'BOX') return Response.json(numbering('BOX', 1))
        if (code) return Response.json(numbering(code, 101))
        await proposal
        return Response.json(numbering('VOL', 101))
      }
      if (pathname === '/api/cart/items' && init?.method === 'POST') {
        added.push(JSON.parse(String(init.body)))
        return Response.json(EMPTY_CART, { status: 201 })
      }
      if (pathname === '/api/cart') return Response.json(EMPTY_CART)
      return Response.json({ error: { code: 'not_found', message: 'Not found.' } }, { status: 404 })
    }),
  )
  return { propose, added }
}

const renderForm = () =>
  renderWithProviders(
    <TagOrderScreen organizationId={ORGANIZATION} organizationName="Syndic" onOrdered={() => undefined} />,
  )

/** The form with its proposal shown (VOL, from 101), and what it adds to the cart. */
async function proposedForm() {
  const { propose, added } = server()
  renderForm()
  await act(async () => propose())
  await waitFor(() => expect(field('Starting number').value).toBe('101'))
  return added
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } })

beforeAll(async () => {
  await useLocale('en')
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('the tag order form', () => {
  it('keeps what was typed before the proposal came, and fills only the fields still empty with it', async () => {
    const { propose } = server()
    renderForm()
    type('Tag name', 'Caves')
    await act(async () => propose())
    await waitFor(() => expect(field('Alpha code').value).toBe('VOL'))
    expect(field('Starting number').value).toBe('101')
    expect(field('Tag name').value).toBe('Caves')
  })

  it('orders a start number nobody typed from the code sent, even before that code’s answer came back', async () => {
    const added = await proposedForm()
    type('Tag name', 'Boîtes')
    type('Alpha code', 'BOX')
    type('Quantity', '100')
    // At once: the form still shows VOL's 101, the BOX answer has not been asked yet (the form waits 300 ms).
    expect(field('Starting number').value).toBe('101')
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }))
    await waitFor(() => expect(added).toHaveLength(1))
    expect(added[0]).toMatchObject({ configuration: { alphaCode: 'BOX', startNumber: 1, name: 'Boîtes' } })
  })

  it('orders a start number typed as it was typed', async () => {
    const added = await proposedForm()
    type('Tag name', 'Boîtes')
    type('Alpha code', 'BOX')
    type('Starting number', '500')
    type('Quantity', '100')
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }))
    await waitFor(() => expect(added).toHaveLength(1))
    expect(added[0]).toMatchObject({ configuration: { alphaCode: 'BOX', startNumber: 500 } })
  })
})

describe('the tag order, step by step', () => {
  const ADDRESS = { line1: '1 rue des Clés', line2: '', postalCode: '75001', city: 'Paris', country: 'FR' }

  it('goes on only when a step is valid, ships to the address confirmed, and shows it before ordering', async () => {
    const { propose, added } = server()
    renderWithProviders(
      <TagOrderScreen
        organizationId={ORGANIZATION}
        organizationName="Syndic"
        onOrdered={() => undefined}
        stepByStep={{ address: ADDRESS }}
      />,
    )
    await act(async () => propose())
    await waitFor(() => expect(field('Starting number').value).toBe('101'))
    expect(screen.queryByLabelText('Quantity')).toBeNull()
    // No name yet: the design step stays, and says why.
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByRole('heading', { name: 'Design' })).toBeTruthy()
    type('Tag name', 'Boîtes')
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    await screen.findByRole('heading', { name: 'Quantity and price' })
    type('Quantity', '100')
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    await screen.findByRole('heading', { name: 'Shipping address' })
    expect(field('City').value).toBe('Paris')
    type('City', ' ')
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    expect(screen.getByText('Required.')).toBeTruthy()
    type('City', 'Lyon')
    fireEvent.click(screen.getByRole('button', { name: 'Next' }))
    await screen.findByRole('heading', { name: 'Review' })
    expect(screen.getByText('1 rue des Clés, 75001 Lyon')).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Add to cart' }))
    await waitFor(() => expect(added).toHaveLength(1))
    expect(added[0]).toMatchObject({
      quantity: 100,
      configuration: {
        name: 'Boîtes',
        alphaCode: 'VOL',
        startNumber: 101,
        shippingAddress: { city: 'Lyon', line1: '1 rue des Clés' },
      },
    })
  })
})
