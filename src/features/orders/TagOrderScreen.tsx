import { Trans, useLingui } from '@lingui/react/macro'
import { useState } from 'react'
import type { Order } from '../../../contract/commerce.ts'
import type { Address } from '../../../contract/organizations.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { PricePreview } from '../../ui/PricePreview.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { useTagCodeRangesText } from '../../ui/tag-code-ranges.ts'
import { TagNumbersNote } from './TagNumbersNote.tsx'
import { QuantityField, TagDesignFields } from './TagOrderFields.tsx'
import { TagPreview } from './TagPreview.tsx'
import { firstCode, type TagOrderDraft } from './tag-order.ts'
import { useTagOrder } from './useTagOrder.ts'

const STEPS = ['design', 'quantity', 'shipping', 'review'] as const
type Step = (typeof STEPS)[number]
const STEP_FIELDS: Record<Step, Array<keyof TagOrderDraft>> = {
  design: ['name', 'alphaCode', 'startNumber', 'foregroundColor', 'backgroundColor'],
  quantity: ['quantity'],
  shipping: [],
  review: [],
}

/**
 * The tag order: design, count and price tags, then add them to the cart or order them, beside a live preview of
 * the tag and its price. `/app/organizations/{id}/new-order` shows it on one page; `…/_new-order` (`stepByStep`,
 * with the organization's address to ship to) one step at a time: design → quantity → shipping → review.
 */
export function TagOrderScreen({
  organizationId,
  organizationName,
  onOrdered,
  stepByStep,
}: {
  organizationId: string
  organizationName: string
  onOrdered: (order: Order) => void
  stepByStep?: { address: Address }
}) {
  const { t } = useLingui()
  const [step, setStep] = useState<Step>('design')
  const order = useTagOrder(organizationId, onOrdered, () => setStep('design'))
  const rangesText = useTagCodeRangesText()
  const [shipping, setShipping] = useState<Address | undefined>(stepByStep?.address)
  const [shippingTried, setShippingTried] = useState(false)
  const index = STEPS.indexOf(step)
  const labels: Record<Step, string> = {
    design: t`Design`,
    quantity: t`Quantity and price`,
    shipping: t`Shipping address`,
    review: t`Review`,
  }
  /** On one page every part shows at once (shipping goes to the organization's address). */
  const shows = (part: Step) => (stepByStep ? step === part : part === 'design' || part === 'quantity')
  const ordering = !stepByStep || step === 'review'
  const shippingProblem = (value: string) => (shippingTried && value.trim() === '' ? t`Required.` : undefined)

  const next = () => {
    if (step === 'shipping' && shipping) {
      setShippingTried(true)
      if (!shipping.line1.trim() || !shipping.city.trim() || !shipping.postalCode.trim()) return
    } else if (STEP_FIELDS[step].some((field) => order.problems[field])) {
      order.setShowProblems(true)
      return
    }
    order.setShowProblems(false)
    setStep(STEPS[index + 1] ?? 'review')
  }
  const { draft } = order
  const price = order.breakdown ? <PricePreview breakdown={order.breakdown} /> : null
  return (
    <>
      <PageHeader title={<Trans>Order tags for {organizationName}</Trans>} />
      {stepByStep ? (
        <ol aria-label={t`Steps`} className="mb-6 flex flex-wrap gap-2 text-sm">
          {STEPS.map((each, position) => (
            <li
              key={each}
              aria-current={each === step ? 'step' : undefined}
              className={`rounded-full px-3 py-1 font-semibold ${each === step ? 'bg-brand-700 text-white' : position < index ? 'bg-brand-100 text-brand-800' : 'bg-slate-200 text-slate-700'}`}
            >
              {position + 1}. {labels[each]}
            </li>
          ))}
        </ol>
      ) : null}
      <form
        noValidate
        aria-label={t`Tag order`}
        className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_18rem]"
        onSubmit={(event) => {
          event.preventDefault()
          if (ordering) void order.submit(true, shipping)
          else next()
        }}
      >
        <Card className="flex min-w-0 flex-col gap-5">
          {stepByStep ? <h2 className="text-lg font-semibold text-slate-900">{labels[step]}</h2> : null}
          {shows('design') ? <TagDesignFields {...order} onChange={order.update} /> : null}
          {shows('quantity') ? (
            <QuantityField
              {...order}
              onChange={order.update}
              description={
                order.prices
                  ? t`From ${order.prices.tagQuantity.min} to ${order.prices.tagQuantity.max} tags; the more, the cheaper each.`
                  : undefined
              }
            />
          ) : null}
          {stepByStep && step === 'quantity' ? price : null}
          {shows('shipping') && shipping ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="sm:col-span-2">
                <TextField
                  label={t`Address`}
                  name="line1"
                  value={shipping.line1}
                  onChange={(line1) => setShipping({ ...shipping, line1 })}
                  error={shippingProblem(shipping.line1)}
                />
              </div>
              <div className="sm:col-span-2">
                <TextField
                  label={t`Address line 2 (optional)`}
                  name="line2"
                  value={shipping.line2}
                  onChange={(line2) => setShipping({ ...shipping, line2 })}
                />
              </div>
              <TextField
                label={t`Postal code`}
                name="postalCode"
                value={shipping.postalCode}
                onChange={(postalCode) => setShipping({ ...shipping, postalCode })}
                error={shippingProblem(shipping.postalCode)}
              />
              <TextField
                label={t`City`}
                name="city"
                value={shipping.city}
                onChange={(city) => setShipping({ ...shipping, city })}
                error={shippingProblem(shipping.city)}
              />
            </div>
          ) : null}
          {shows('review') && shipping ? (
            <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[auto_1fr]">
              <dt className="font-medium text-slate-600">
                <Trans>Tags</Trans>
              </dt>
              <dd>
                {draft.quantity} × “{draft.name}”
                {order.numbering?.codes.length ? `, ${rangesText(order.numbering.codes)}` : ''}
              </dd>
              <dt className="font-medium text-slate-600">
                <Trans>Shipping address</Trans>
              </dt>
              <dd>
                {shipping.line1}
                {shipping.line2 ? `, ${shipping.line2}` : ''}, {shipping.postalCode} {shipping.city}
              </dd>
            </dl>
          ) : null}
          {step !== 'shipping' ? (
            <TagNumbersNote
              numbering={order.numbering}
              askedFirstCode={firstCode(draft)}
              onStartAt={(startNumber) => order.update({ startNumber })}
            />
          ) : null}
          <div className="flex flex-wrap gap-3">
            {index > 0 ? (
              <Button variant="secondary" onPress={() => setStep(STEPS[index - 1] ?? 'design')}>
                <Trans>Back</Trans>
              </Button>
            ) : null}
            {ordering ? (
              <>
                <Button
                  variant="secondary"
                  isDisabled={order.busy}
                  onPress={() => void order.submit(false, shipping)}
                >
                  <Trans>Add to cart</Trans>
                </Button>
                <Button type="submit" isDisabled={order.busy}>
                  <Trans>Complete the order</Trans>
                </Button>
              </>
            ) : (
              <Button type="submit">
                <Trans>Next</Trans>
              </Button>
            )}
          </div>
        </Card>
        <div className="flex flex-col items-center gap-5">
          <TagPreview
            code={order.numbering?.codes[0]?.first ?? firstCode(draft)}
            name={draft.name}
            foreground={draft.foregroundColor}
            background={draft.backgroundColor}
          />
          {price && !(stepByStep && step === 'quantity') ? <Card className="w-full">{price}</Card> : null}
        </div>
      </form>
    </>
  )
}
