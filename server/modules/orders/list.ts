import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm'
import type * as v from 'valibot'
import type { Order, OrderListQuerySchema } from '../../../contract/commerce.ts'
import type { Db } from '../../db/client.ts'
import { orders, organizations } from '../../db/schema.ts'
import { cursorInstant, decodeCursor, pageLimit, toPage } from '../../http/pagination.ts'
import type { OrderCaller } from './actions.ts'
import { orderColumns, toOrders } from './view.ts'

type Query = v.InferOutput<typeof OrderListQuerySchema>

/**
 * A page of orders, newest first (keyset on `(created_at, id)`), optionally of one status: every
 * organization's for `organizationId: null` (operators), else the organization's.
 */
export async function listOrders(
  db: Db,
  input: { organizationId: string | null; query: Query; caller: OrderCaller },
): Promise<{ data: Order[]; nextCursor: string | null }> {
  const { query } = input
  const limit = pageLimit(query.limit)
  let after: SQL | undefined
  if (query.cursor) {
    const [createdAt, id] = decodeCursor(query.cursor, 2) as [string, string]
    const at = cursorInstant(createdAt)
    if (Number.isNaN(at.getTime()) || !/^[0-9a-f-]{36}$/.test(id)) decodeCursor('', 2)
    after = or(lt(orders.createdAt, at), and(eq(orders.createdAt, at), sql`${orders.id} < ${id}`))
  }
  const rows = await db
    .select(orderColumns)
    .from(orders)
    .innerJoin(organizations, eq(organizations.id, orders.organizationId))
    .where(
      and(
        input.organizationId ? eq(orders.organizationId, input.organizationId) : undefined,
        query.status ? eq(orders.status, query.status) : undefined,
        after,
      ),
    )
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit + 1)
  const page = toPage(
    rows,
    limit,
    (row) => [row.order.createdAt.toISOString(), row.order.id],
    (row) => row,
  )
  return { data: await toOrders(db, page.data, input.caller), nextCursor: page.nextCursor }
}
