import { inArray } from 'drizzle-orm'
import {
  type PlanConfiguration,
  PRODUCT_TYPES,
  type ProductType,
  type TagConfiguration,
} from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import { type PriceBreakdown, type Prices, priceBreakdown, tagUnitPrice } from '../../../contract/pricing.ts'
import type { Db } from '../../db/client.ts'
import { type PlanRow, plans } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { baseTagUnitPrice } from '../prices/prices.ts'

/** A cart or order line as stored: what was chosen, without amounts. */
export type LineChoice = {
  productType: ProductType
  productRefId: string
  quantity: number
  configuration: unknown
}

export type PricedLine<L extends LineChoice = LineChoice> = L & {
  unitAmountInCents: number
  baseUnitAmountInCents: number
  lineTotalInCents: number
  /** A line that is shipped (tags): shipping applies to the order. */
  ships: boolean
}

const typeRank = (type: ProductType) => PRODUCT_TYPES.indexOf(type)

/** Display order: plan, tag, accessory, other; within a type, as given (insertion order). */
export function inDisplayOrder<L extends { productType: ProductType }>(lines: L[]): L[] {
  return lines
    .map((line, index) => ({ line, index }))
    .sort((a, b) => typeRank(a.line.productType) - typeRank(b.line.productType) || a.index - b.index)
    .map(({ line }) => line)
}

/**
 * Prices each line with the server's price list and plan table, the only source of amounts: what a client
 * sent is compared with this, never used. A plan no longer offered is a 409.
 */
export async function priceLines<L extends LineChoice>(
  db: Db,
  prices: Prices,
  lines: L[],
): Promise<PricedLine<L>[]> {
  const planIds = lines.filter((line) => line.productType === 'PLAN').map((line) => line.productRefId)
  const planRows = planIds.length > 0 ? await db.select().from(plans).where(inArray(plans.id, planIds)) : []
  const planById = new Map<string, PlanRow>(planRows.map((row) => [row.id, row]))
  return lines.map((line) => {
    if (line.productType === 'TAG') {
      const unit = tagUnitPrice(prices, line.quantity)
      return priced(line, unit, baseTagUnitPrice(prices), true)
    }
    if (line.productType === 'PLAN') {
      const plan = planById.get(line.productRefId)
      if (!plan?.active) {
        const name = (line.configuration as PlanConfiguration).name
        throw new ApiError(409, ErrorCode.conflict, `The plan ${name} is no longer offered: remove it.`)
      }
      return priced(line, plan.amountInCents, plan.amountInCents, false)
    }
    throw new Error(`no price for product type ${line.productType}`)
  })
}

function priced<L extends LineChoice>(line: L, unit: number, base: number, ships: boolean): PricedLine<L> {
  return {
    ...line,
    unitAmountInCents: unit,
    baseUnitAmountInCents: base,
    lineTotalInCents: unit * line.quantity,
    ships,
  }
}

/** Totals through the contract's one computation (the browser's preview uses the same). */
export function totalsOf(prices: Prices, lines: PricedLine[]): Omit<PriceBreakdown, 'unitAmountInCents'> {
  const { unitAmountInCents: _, ...totals } = priceBreakdown(prices, lines)
  return totals
}

export const tagConfiguration = (line: { configuration: unknown }) => line.configuration as TagConfiguration
export const planConfigurationOf = (line: { configuration: unknown }) =>
  line.configuration as PlanConfiguration
