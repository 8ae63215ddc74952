import { screen } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Order, OrderStatus } from '../../../contract/commerce.ts'
import { renderWithRouter, useLocale } from '../../../tests/render.tsx'
import { OrderContents } from './OrderContents.tsx'
import { OrderResultScreen, type ResultKind } from './OrderResultScreen.tsx'

const planLine = {
  id: 'l1',
  productType: 'PLAN' as const,
  productRefId: 'p1',
  quantity: 1,
  unitAmountInCents: 2900,
  lineTotalInCents: 2900,
  configuration: {
    billingCycle: 'MONTHLY' as const,
    recurringInterval: 'month' as const,
    recurringIntervalCount: 1,
    quantity: 20,
    name: 'Pro',
  },
}
const tagLine = {
  id: 'l2',
  productType: 'TAG' as const,
  productRefId: 'tag',
  quantity: 50,
  unitAmountInCents: 100,
  lineTotalInCents: 5000,
  configuration: {
    name: 'Cave',
    alphaCode: 'CAV',
    startNumber: 1,
    foregroundColor: '#111827',
    backgroundColor: '#ffffff',
  },
}

function order(status: OrderStatus, quantity = 50): Order {
  return {
    id: 'o1',
    reference: 'TR-2026-000001',
    status,
    organization: { id: 'org', name: 'Régie' },
    quantity,
    createdAt: '2026-11-24T08:00:00.000Z',
    totals: {
      subtotalInCents: 5000,
      discountInCents: 0,
      shippingInCents: 0,
      freeShipping: true,
      taxInCents: 1000,
      totalInCents: 6000,
    },
    lines: quantity > 0 ? [tagLine] : [planLine],
    shippingAddress: null,
    actions: [],
  }
}

function answering(body: Order) {
  const fetchMock = vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  )
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

beforeAll(async () => {
  await useLocale('en')
})

afterEach(() => {
  vi.unstubAllGlobals()
})

describe('payment result page', () => {
  it('without an order to check, says so at once and leads to the orders, asking nothing', async () => {
    const fetchMock = answering(order('PAID'))
    await renderWithRouter(<OrderResultScreen orderId={undefined} kind="pending" />)
    expect(await screen.findByRole('heading', { name: 'No order to check' })).toBeTruthy()
    expect(screen.getByRole('link', { name: 'See the orders' }).getAttribute('href')).toBe('/en/app/orders')
    expect(screen.queryByText('Checking the payment…')).toBeNull()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it.each([
    ['UNPAID', 'cancel', 'Payment declined'],
    ['EXPIRED', 'cancel', 'Payment cancelled'],
    ['CREATED', 'cancel', 'Payment cancelled'],
    ['PAID', 'success', 'Payment received'],
  ] as const)('an order %s after the %s address reads "%s"', async (status, kind, heading) => {
    answering(order(status))
    await renderWithRouter(<OrderResultScreen orderId="o1" kind={kind as ResultKind} />)
    expect(await screen.findByRole('heading', { name: heading })).toBeTruthy()
  })

  it('keeps checking a payment still being made', async () => {
    answering(order('CREATED'))
    await renderWithRouter(<OrderResultScreen orderId="o1" kind="success" />)
    expect(await screen.findByText('Checking the payment…')).toBeTruthy()
  })
})

describe('order contents', () => {
  it.each([
    ['50 tags', order('PAID', 50)],
    ['1 tag', order('PAID', 1)],
    ['Plan Pro', order('PAID', 0)],
    ['Plan Pro and 10 tags', { ...order('PAID', 10), lines: [planLine, tagLine] }],
  ])('reads "%s", never a bare 0', async (text, value) => {
    await renderWithRouter(
      <p data-testid="contents">
        <OrderContents order={value} />
      </p>,
    )
    expect((await screen.findByTestId('contents')).textContent).toBe(text)
  })
})
