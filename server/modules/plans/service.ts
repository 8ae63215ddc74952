import { and, asc, eq } from 'drizzle-orm'
import type { BillingCycle, Plan, PlanConfiguration } from '../../../contract/commerce.ts'
import type { Db } from '../../db/client.ts'
import { type PlanRow, plans } from '../../db/schema.ts'

function toPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    amountInCents: row.amountInCents,
    recurringInterval: row.recurringInterval,
    recurringIntervalCount: row.recurringIntervalCount,
    quantity: row.transfersPerMonth,
  }
}

const billingCycleOf = (interval: PlanRow['recurringInterval']): BillingCycle =>
  interval === 'year' ? 'YEARLY' : 'MONTHLY'

/** The configuration a cart or order line of this plan carries. */
export function planConfiguration(row: PlanRow): PlanConfiguration {
  return {
    billingCycle: billingCycleOf(row.recurringInterval),
    recurringInterval: row.recurringInterval,
    recurringIntervalCount: row.recurringIntervalCount,
    quantity: row.transfersPerMonth,
    name: row.name,
  }
}

/** The plans on offer, cheapest first within each name, in the catalogue's order. */
export async function listPlans(db: Db): Promise<Plan[]> {
  const rows = await db.select().from(plans).where(eq(plans.active, true)).orderBy(asc(plans.sortOrder))
  return rows.map(toPlan)
}

/** An offered plan, or null (unknown or no longer offered). */
export async function findActivePlan(db: Db, id: string): Promise<PlanRow | null> {
  const [row] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.id, id), eq(plans.active, true)))
  return row ?? null
}
