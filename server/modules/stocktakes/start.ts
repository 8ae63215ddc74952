import { sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { StocktakeDetail } from '../../../contract/stocktakes.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { hooks, keychains, stocktakeItems, stocktakes, transfers } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { placeSubtreeIds } from '../../shared/places.ts'
import { appendEvent } from '../events/append.ts'
import { stocktakeDetail } from './view.ts'

/**
 * `POST /stocktakes`: a stocktake of a place and everything under it, or of the whole organization (no place).
 * What it expects is taken now, in one statement: every keychain not deleted whose home hook is in the scope
 * and that nobody holds (no custodian, no transfer out). One open stocktake per scope (409).
 */
export async function startStocktake(
  deps: Pick<AppDeps, 'database' | 'clock'>,
  input: { organizationId: string; actorId: string; placeId: string | null },
): Promise<StocktakeDetail> {
  const { db } = deps.database
  const now = deps.clock.now()
  let scope: string[] | null = null
  if (input.placeId) {
    scope = await placeSubtreeIds(db, input.organizationId, input.placeId)
    if (scope.length === 0) throw notFound('No such place.')
  }
  let id: string
  try {
    id = await db.transaction(async (tx) => {
      const [stocktake] = await tx
        .insert(stocktakes)
        .values({
          organizationId: input.organizationId,
          placeId: input.placeId,
          startedById: input.actorId,
          startedAt: now,
        })
        .returning({ id: stocktakes.id })
      const stocktakeId = stocktake!.id
      const inScope = scope ? sql`and ${hooks.placeId} = any(${`{${scope.join(',')}}`}::uuid[])` : sql``
      const expected = await tx.execute(sql`
        insert into ${stocktakeItems} (stocktake_id, keychain_id, expected_hook_id)
        select ${stocktakeId}::uuid, ${keychains.id}, ${keychains.homeHookId}
        from ${keychains} join ${hooks} on ${hooks.id} = ${keychains.homeHookId}
        where ${keychains.organizationId} = ${input.organizationId}
          and ${hooks.organizationId} = ${input.organizationId}
          and ${keychains.deletedAt} is null and ${keychains.custodianId} is null
          and not exists (select 1 from ${transfers} where ${transfers.keychainId} = ${keychains.id}
            and ${transfers.status} = 'TRANSFERRED')
          ${inScope}
        returning keychain_id`)
      const count = (expected as unknown as { rows: unknown[] }).rows.length
      await appendEvent(tx, {
        organizationId: input.organizationId,
        kind: 'stocktake.started',
        actorId: input.actorId,
        serverTime: now,
        payload: { stocktakeId, placeId: input.placeId, expected: count },
      })
      return stocktakeId
    })
  } catch (error) {
    if (isUniqueViolation(error, 'stocktakes_open_scope_unique')) {
      throw new ApiError(
        409,
        ErrorCode.conflict,
        'A stocktake of this scope is already open: close it first.',
      )
    }
    throw error
  }
  return stocktakeDetail(db, input.organizationId, id)
}
