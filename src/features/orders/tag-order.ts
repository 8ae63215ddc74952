import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { type CartItemCreate, TAG_PRODUCT_ID } from '../../../contract/commerce.ts'
import type { Address } from '../../../contract/organizations.ts'
import { type Prices, qrColorsReadable, tagUnitPrice } from '../../../contract/pricing.ts'

export type TagOrderDraft = {
  name: string
  alphaCode: string
  startNumber: string
  quantity: string
  foregroundColor: string
  backgroundColor: string
}

export const EMPTY_DRAFT: TagOrderDraft = {
  name: '',
  alphaCode: '',
  startNumber: '1',
  quantity: '100',
  foregroundColor: '#111827',
  backgroundColor: '#ffffff',
}

export type DraftProblems = Partial<Record<keyof TagOrderDraft, MessageDescriptor>>

const HEX = /^#[0-9a-f]{6}$/i

/** What is wrong with a draft, field by field (empty when it can go to the cart). */
export function draftProblems(draft: TagOrderDraft, prices: Prices | undefined): DraftProblems {
  const problems: DraftProblems = {}
  if (draft.name.trim() === '') problems.name = msg`The tag name is required.`
  else if (draft.name.trim().length > 60) problems.name = msg`At most 60 characters.`
  if (!/^[A-Za-z]{2,4}$/.test(draft.alphaCode.trim()))
    problems.alphaCode = msg`The alpha code must be 2 to 4 letters.`
  const start = Number(draft.startNumber)
  if (!Number.isInteger(start) || start < 1 || start > 99_999) problems.startNumber = msg`From 1 to 99999.`
  const quantity = Number(draft.quantity)
  const bounds = prices?.tagQuantity ?? { min: 10, max: 5000 }
  if (!Number.isInteger(quantity) || quantity < bounds.min || quantity > bounds.max) {
    problems.quantity = msg`Between ${bounds.min} and ${bounds.max} tags.`
  } else if (Number.isInteger(start) && start + quantity - 1 > 99_999) {
    problems.quantity = msg`The numbers would pass 99999: start lower or order fewer.`
  }
  if (!HEX.test(draft.foregroundColor)) problems.foregroundColor = msg`Use a colour like #1a2b3c.`
  if (!HEX.test(draft.backgroundColor)) problems.backgroundColor = msg`Use a colour like #1a2b3c.`
  else if (
    HEX.test(draft.foregroundColor) &&
    !qrColorsReadable(draft.foregroundColor, draft.backgroundColor)
  ) {
    problems.backgroundColor = msg`Scanners cannot read this QR code: use a dark colour on a light background, with a contrast of at least 4.5:1.`
  }
  return problems
}

/** The cart line of a valid draft, priced with the server's own tiers (the server checks it again). */
export function tagCartItem(draft: TagOrderDraft, prices: Prices, shippingAddress?: Address): CartItemCreate {
  const quantity = Number(draft.quantity)
  return {
    productType: 'TAG',
    productRefId: TAG_PRODUCT_ID,
    quantity,
    unitAmountInCents: tagUnitPrice(prices, quantity),
    configuration: {
      name: draft.name.trim(),
      alphaCode: draft.alphaCode.trim().toUpperCase(),
      startNumber: Number(draft.startNumber),
      foregroundColor: draft.foregroundColor.toLowerCase(),
      backgroundColor: draft.backgroundColor.toLowerCase(),
      ...(shippingAddress ? { shippingAddress } : {}),
    },
  }
}

export function firstCode(draft: TagOrderDraft): string {
  const number = Number(draft.startNumber)
  const code = (draft.alphaCode.trim().toUpperCase() || 'ABC').slice(0, 4)
  return `${code}-${String(Number.isInteger(number) && number > 0 ? number : 1).padStart(5, '0')}`
}

/**
 * What to ask `GET /cart/tag-numbers` for this draft: only the fields that are valid (a start number only with
 * its own code); an empty draft asks for the organization's code and next number.
 */
export function numberingQuery(draft: TagOrderDraft): {
  alphaCode?: string
  startNumber?: string
  quantity?: string
} {
  const alphaCode = draft.alphaCode.trim().toUpperCase()
  if (!/^[A-Z]{2,4}$/.test(alphaCode)) return {}
  const start = Number(draft.startNumber)
  const quantity = Number(draft.quantity)
  return {
    alphaCode,
    ...(Number.isInteger(start) && start >= 1 && start <= 99_999 ? { startNumber: String(start) } : {}),
    ...(Number.isInteger(quantity) && quantity >= 1 && quantity <= 5000
      ? { quantity: String(quantity) }
      : {}),
  }
}
