import { useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import type { Order } from '../../../contract/commerce.ts'
import type { Address } from '../../../contract/organizations.ts'
import { priceBreakdown, tagUnitPrice } from '../../../contract/pricing.ts'
import { useAddToCart, useCheckout } from '../../api/cart.ts'
import { pricesQuery } from '../../api/prices.ts'
import { tagNumbersQuery } from '../../api/tag-numbers.ts'
import { useUnsavedChanges } from '../../lib/unsaved.ts'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { toasts } from '../../ui/toast/store.ts'
import { draftProblems, EMPTY_DRAFT, numberingQuery, type TagOrderDraft, tagCartItem } from './tag-order.ts'

/** State and actions of a tag order, shared by both order screens so they produce the same cart lines. */
export function useTagOrder(organizationId: string, onOrdered: (order: Order) => void, onAdded: () => void) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const queryClient = useQueryClient()
  const addToCart = useAddToCart(organizationId)
  const checkout = useCheckout(organizationId)
  const prices = useQuery(pricesQuery).data
  const [draft, setDraft] = useState<TagOrderDraft>(EMPTY_DRAFT)
  // The draft as proposed (the organization's code and next number): leaving it untouched loses nothing.
  const [proposed, setProposed] = useState<TagOrderDraft>(EMPTY_DRAFT)
  const [showProblems, setShowProblems] = useState(false)
  const [busy, setBusy] = useState(false)
  useUnsavedChanges(draft !== EMPTY_DRAFT && draft !== proposed)
  const asked = numberingQuery(draft)
  const settled = useSettled(asked)
  const numberingResult = useQuery(tagNumbersQuery(organizationId, settled))
  // Only an answer to the draft as it is now (not a previous one kept on screen while typing).
  const numbering =
    JSON.stringify(asked) === JSON.stringify(settled) && !numberingResult.isPlaceholderData
      ? numberingResult.data
      : undefined
  const proposing = useRef(true)
  // Until the person types a start number, it follows the alpha code's next free number.
  const startTyped = useRef(false)
  useEffect(() => {
    if (!numbering) return
    // Proposed once, unless a code was typed first (its own answer then sets the start number).
    if (proposing.current && draft.alphaCode.trim() === '') {
      proposing.current = false
      const next = {
        ...EMPTY_DRAFT,
        alphaCode: numbering.alphaCode,
        startNumber: String(numbering.nextNumber),
      }
      setProposed(next)
      // What was typed while the proposal was on its way stays: it only fills the fields still empty.
      setDraft((current) =>
        current === EMPTY_DRAFT
          ? next
          : {
              ...current,
              alphaCode: current.alphaCode || next.alphaCode,
              startNumber: startTyped.current ? current.startNumber : next.startNumber,
            },
      )
      return
    }
    const nextNumber = String(numbering.nextNumber)
    if (!startTyped.current && numbering.alphaCode === asked.alphaCode && draft.startNumber !== nextNumber) {
      setDraft((current) => ({ ...current, startNumber: nextNumber }))
    }
  }, [draft, numbering, asked.alphaCode])
  // A start number nobody typed follows the code: asked now if the answer for this code is not in yet (a
  // quick hand could submit before the code's next number came back and order the previous code's).
  const withStartNumber = async (current: TagOrderDraft): Promise<TagOrderDraft> => {
    if (startTyped.current) return current
    const alphaCode = current.alphaCode.trim().toUpperCase()
    const answer = await queryClient.fetchQuery(tagNumbersQuery(organizationId, { alphaCode }))
    return { ...current, startNumber: String(answer.nextNumber) }
  }
  const problems = draftProblems(draft, prices)
  const valid = Object.keys(problems).length === 0
  const quantity = Number(draft.quantity)
  const breakdown =
    prices && Number.isInteger(quantity) && quantity > 0
      ? priceBreakdown(prices, [
          {
            unitAmountInCents: tagUnitPrice(prices, quantity),
            baseUnitAmountInCents: prices.tagTiers[0]?.unitAmountInCents ?? 0,
            quantity,
            ships: true,
          },
        ])
      : null

  const submit = async (complete: boolean, shippingAddress?: Address) => {
    setShowProblems(true)
    if (!valid || !prices) return false
    setBusy(true)
    try {
      await addToCart.mutateAsync(tagCartItem(await withStartNumber(draft), prices, shippingAddress))
    } catch (error) {
      setBusy(false)
      failed(t`The tags could not be added to the cart.`, error)
      return false
    }
    // The line is in the cart now: clear the form so a retry can never add it twice; then propose the
    // numbers after it.
    proposing.current = true
    startTyped.current = false
    setDraft(EMPTY_DRAFT)
    setShowProblems(false)
    if (!complete) {
      setBusy(false)
      toasts.add({ severity: 'success', summary: t`The tags have been added to the cart.`, life: 4000 })
      onAdded()
      return true
    }
    try {
      onOrdered(await checkout.mutateAsync(shippingAddress))
      return true
    } catch (error) {
      failed(
        t`The tags are in your cart, but the order could not be placed. Open the cart to try again.`,
        error,
      )
      return false
    } finally {
      setBusy(false)
    }
  }

  return {
    draft,
    prices,
    problems,
    valid,
    showProblems,
    setShowProblems,
    busy,
    breakdown,
    numbering: asked.alphaCode ? numbering : undefined,
    update: (patch: Partial<TagOrderDraft>) => {
      if (patch.startNumber !== undefined) startTyped.current = true
      setDraft((current) => ({ ...current, ...patch }))
    },
    submit,
  }
}

/** `query` once it has stayed the same for a moment (typing a code asks the server once, not per key). */
function useSettled<T extends object>(query: T, delayMs = 300): T {
  const key = JSON.stringify(query)
  const [settled, setSettled] = useState(key)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(key), delayMs)
    return () => clearTimeout(timer)
  }, [key, delayMs])
  return JSON.parse(settled) as T
}
