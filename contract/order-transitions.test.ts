import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { EXPECTED_TRANSITIONS } from '../tests/order-transitions.ts'
import {
  CartProductTypeSchema,
  ORDER_ACTIONS,
  ORDER_STATUSES,
  ORDER_TRANSITIONS,
  PAYMENT_PENDING_STATUSES,
  PRODUCT_TYPES,
  TAG_NUMBER_MAX,
  TAG_PRODUCT_ID,
  TAG_QUANTITY_BOUNDS,
  tagNumbersFit,
} from './commerce.ts'

describe('order statuses', () => {
  it('are, in order, the life of an order', () => {
    expect(ORDER_STATUSES).toEqual([
      'CREATED',
      'PAID',
      'EXPIRED',
      'UNPAID',
      'CONFIRMED',
      'PRODUCING',
      'SHIPPED',
      'DELIVERED',
    ])
    expect(PAYMENT_PENDING_STATUSES).toEqual(['CREATED', 'UNPAID', 'EXPIRED'])
  })

  it('move only along the transition table, written out whole', () => {
    expect(ORDER_TRANSITIONS).toEqual(EXPECTED_TRANSITIONS)
  })

  it.each(ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const)))(
    '%s → %s is allowed only where the table says so',
    (from, to) => {
      const allowed = new Set([
        'CREATED>PAID',
        'CREATED>UNPAID',
        'CREATED>EXPIRED',
        'UNPAID>PAID',
        'UNPAID>EXPIRED',
        'EXPIRED>PAID',
        'EXPIRED>UNPAID',
        'PAID>CONFIRMED',
        'CONFIRMED>PRODUCING',
        'PRODUCING>SHIPPED',
        'SHIPPED>DELIVERED',
      ])
      expect(ORDER_TRANSITIONS[from].includes(to)).toBe(allowed.has(`${from}>${to}`))
    },
  )

  it('offer one action per step', () => {
    expect(ORDER_ACTIONS).toEqual([
      'sessions',
      'checks',
      'confirmations',
      'productions',
      'shipments',
      'deliveries',
      'tags-exports',
    ])
  })
})

describe('what a cart holds', () => {
  it('plans and tags, shown plan first', () => {
    expect(PRODUCT_TYPES).toEqual(['PLAN', 'TAG', 'ACCESSORY', 'OTHER'])
    expect(v.parse(CartProductTypeSchema, 'TAG')).toBe('TAG')
    expect(v.safeParse(CartProductTypeSchema, 'ACCESSORY').issues?.[0]?.message).toBe(
      'Product type must be PLAN or TAG.',
    )
    expect(TAG_PRODUCT_ID).toBe('tag-standard')
    expect(TAG_QUANTITY_BOUNDS).toEqual({ min: 10, max: 5000 })
  })
})

describe('tag numbering', () => {
  it.each([
    [1, 10, true],
    [99_990, 10, true], // 99990 … 99999: ends at the last number
    [99_991, 10, false], // would need 100000
    [99_999, 1, true],
    [99_999, 2, false],
    [95_000, 5000, true],
    [95_001, 5000, false],
  ])('a run from %i of %i tags fits: %s', (start, quantity, fits) => {
    expect(tagNumbersFit(start, quantity)).toBe(fits)
  })

  it('prints five digits', () => {
    expect(TAG_NUMBER_MAX).toBe(99_999)
  })
})
