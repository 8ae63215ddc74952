import { screen } from '@testing-library/react'
import { beforeAll, describe, expect, it } from 'vitest'
import { renderWithProviders, useLocale } from '../../tests/render.tsx'
import { PricePreview } from './PricePreview.tsx'

beforeAll(async () => {
  await useLocale('en')
})

const rows = () =>
  [...screen.getByLabelText('Price').querySelectorAll('dt')].map(
    (term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`,
  )

describe('price preview', () => {
  it('sums to the subtotal the lines show, the tier saving shown above it once', () => {
    // 100 tags at the tier price of €1.71 (list €1.90): the cart lines read 100 × €1.71 = €171.00.
    renderWithProviders(
      <PricePreview
        breakdown={{
          subtotalInCents: 17_100,
          discountInCents: 1_900,
          shippingInCents: 0,
          freeShipping: true,
          taxInCents: 3_420,
          totalInCents: 20_520,
        }}
      />,
    )
    expect(rows()).toEqual([
      'List price: €190.00',
      'Quantity discount: − €19.00',
      'Subtotal: €171.00',
      'Shipping: Free',
      'VAT: €34.20',
      'Total: €205.20',
    ])
  })

  it('without a saving, starts at the subtotal', () => {
    renderWithProviders(
      <PricePreview
        breakdown={{
          subtotalInCents: 2_900,
          discountInCents: 0,
          shippingInCents: 0,
          freeShipping: false,
          taxInCents: 580,
          totalInCents: 3_480,
        }}
      />,
    )
    expect(rows()).toEqual(['Subtotal: €29.00', 'VAT: €5.80', 'Total: €34.80'])
  })
})
