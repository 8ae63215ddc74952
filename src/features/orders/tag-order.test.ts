import { i18n } from '@lingui/core'
import { describe, expect, it } from 'vitest'
import type { Prices } from '../../../contract/pricing.ts'
import { draftProblems, EMPTY_DRAFT, firstCode, numberingQuery, tagCartItem } from './tag-order.ts'

const prices: Prices = {
  currency: 'EUR',
  tagTiers: [
    { minQuantity: 10, unitAmountInCents: 250 },
    { minQuantity: 100, unitAmountInCents: 200 },
  ],
  shippingFeeInCents: 790,
  freeShippingThresholdInCents: 15000,
  vatRatePercent: 20,
  tagQuantity: { min: 10, max: 5000 },
}

const valid = { ...EMPTY_DRAFT, name: 'Caves', alphaCode: 'vol', quantity: '100' }
const messages = (draft: typeof valid) =>
  Object.fromEntries(
    Object.entries(draftProblems(draft, prices)).map(([field, message]) => [field, i18n._(message)]),
  )

describe('tag order draft', () => {
  it('accepts a complete draft and builds the cart line at the tier price', () => {
    expect(draftProblems(valid, prices)).toEqual({})
    expect(tagCartItem(valid, prices)).toEqual({
      productType: 'TAG',
      productRefId: 'tag-standard',
      quantity: 100,
      unitAmountInCents: 200,
      configuration: {
        name: 'Caves',
        alphaCode: 'VOL',
        startNumber: 1,
        foregroundColor: '#111827',
        backgroundColor: '#ffffff',
      },
    })
    expect(firstCode({ ...valid, startNumber: '42' })).toBe('VOL-00042')
  })

  it('says what is wrong, field by field', () => {
    expect(messages({ ...valid, alphaCode: 'V1' }).alphaCode).toBe('The alpha code must be 2 to 4 letters.')
    expect(messages({ ...valid, quantity: '5' }).quantity).toBe('Between 10 and 5000 tags.')
    expect(messages({ ...valid, startNumber: '99950' }).quantity).toBe(
      'The numbers would pass 99999: start lower or order fewer.',
    )
    expect(messages({ ...valid, name: ' ' }).name).toBe('The tag name is required.')
  })

  it('refuses colours a scanner cannot read, and says why', () => {
    const lightOnDark = messages({ ...valid, foregroundColor: '#ffffff', backgroundColor: '#111827' })
    expect(lightOnDark.backgroundColor).toMatch(/dark colour on a light background/)
    const pale = messages({ ...valid, foregroundColor: '#bbbbbb', backgroundColor: '#ffffff' })
    expect(pale.backgroundColor).toMatch(/contrast of at least 4.5:1/)
  })
})

describe('numberingQuery', () => {
  it('asks for the proposal while the code is not a valid one', () => {
    expect(numberingQuery(EMPTY_DRAFT)).toEqual({})
    expect(numberingQuery({ ...valid, alphaCode: 'v1' })).toEqual({})
    expect(numberingQuery({ ...valid, alphaCode: 'ABCDE' })).toEqual({})
  })

  it('sends the code upper case, with the start number and quantity only when they are valid', () => {
    expect(numberingQuery({ ...valid, alphaCode: ' vol ', startNumber: '61' })).toEqual({
      alphaCode: 'VOL',
      startNumber: '61',
      quantity: '100',
    })
    expect(numberingQuery({ ...valid, startNumber: '0', quantity: '5001' })).toEqual({ alphaCode: 'VOL' })
    expect(numberingQuery({ ...valid, startNumber: '100000', quantity: '' })).toEqual({ alphaCode: 'VOL' })
    expect(numberingQuery({ ...valid, startNumber: '99999', quantity: '1' })).toEqual({
      alphaCode: 'VOL',
      startNumber: '99999',
      quantity: '1',
    })
  })
})
