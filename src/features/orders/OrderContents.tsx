import { Plural, Trans } from '@lingui/react/macro'
import type { Order } from '../../../contract/commerce.ts'

/** What an order holds, in words: "Plan Pro", "50 tags", or both, never a bare "0" for a plan. */
export function OrderContents({ order }: { order: Pick<Order, 'quantity' | 'lines'> }) {
  const plan = order.lines.find((line) => line.productType === 'PLAN')
  const planName = plan && 'billingCycle' in plan.configuration ? plan.configuration.name : null
  const tags = order.quantity > 0 ? <Plural value={order.quantity} one="# tag" other="# tags" /> : null
  if (planName !== null && tags)
    return (
      <Trans>
        Plan {planName} and {tags}
      </Trans>
    )
  if (planName !== null) return <Trans>Plan {planName}</Trans>
  return tags ?? <Trans>Nothing</Trans>
}
