import { Trans, useLingui } from '@lingui/react/macro'
import type { Order } from '../../../contract/commerce.ts'
import { Button } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { PricePreview } from '../../ui/PricePreview.tsx'
import { TagNumbersNote } from './TagNumbersNote.tsx'
import { QuantityField, TagDesignFields } from './TagOrderFields.tsx'
import { TagPreview } from './TagPreview.tsx'
import { firstCode } from './tag-order.ts'
import { useTagOrder } from './useTagOrder.ts'

/** `/app/organizations/{id}/new-order`: one page to design, count and price tags, then cart or order. */
export function NewOrderScreen({
  organizationId,
  organizationName,
  onOrdered,
}: {
  organizationId: string
  organizationName: string
  onOrdered: (order: Order) => void
}) {
  const { t } = useLingui()
  const order = useTagOrder(organizationId, onOrdered, () => undefined)
  const { draft } = order
  return (
    <>
      <PageHeader title={<Trans>Order tags for {organizationName}</Trans>} />
      <form
        noValidate
        aria-label={t`Tag order`}
        className="grid grid-cols-1 gap-6 lg:grid-cols-[1fr_18rem]"
        onSubmit={(event) => {
          event.preventDefault()
          void order.submit(true)
        }}
      >
        <Card className="flex min-w-0 flex-col gap-5">
          <TagDesignFields {...order} onChange={order.update} />
          <QuantityField
            {...order}
            onChange={order.update}
            description={
              order.prices
                ? t`From ${order.prices.tagQuantity.min} to ${order.prices.tagQuantity.max} tags; the more, the cheaper each.`
                : undefined
            }
          />
          <TagNumbersNote
            numbering={order.numbering}
            askedFirstCode={firstCode(draft)}
            onStartAt={(startNumber) => order.update({ startNumber })}
          />
          <div className="flex flex-wrap gap-3">
            <Button variant="secondary" isDisabled={order.busy} onPress={() => void order.submit(false)}>
              <Trans>Add to cart</Trans>
            </Button>
            <Button type="submit" isDisabled={order.busy}>
              <Trans>Complete the order</Trans>
            </Button>
          </div>
        </Card>
        <div className="flex flex-col items-center gap-5">
          <TagPreview
            code={order.numbering?.codes[0]?.first ?? firstCode(draft)}
            name={draft.name}
            foreground={draft.foregroundColor}
            background={draft.backgroundColor}
          />
          {order.breakdown ? (
            <Card className="w-full">
              <PricePreview breakdown={order.breakdown} />
            </Card>
          ) : null}
        </div>
      </form>
    </>
  )
}
