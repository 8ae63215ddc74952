import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { HookRef, KeychainWhereabouts } from '../../contract/whereabouts.ts'
import type { Db } from '../db/client.ts'
import { hooks, keychains, places } from '../db/schema.ts'

/**
 * The ids of a place and of every place under it, in the organization (empty when it is not one of its places).
 * The tree is a few hundred rows at most: one recursive query.
 */
export async function placeSubtreeIds(db: Db, organizationId: string, placeId: string): Promise<string[]> {
  const rows = (await db.execute(sql`
    with recursive subtree(id) as (
      select ${places.id} from ${places}
      where ${places.organizationId} = ${organizationId} and ${places.id} = ${placeId}
      union all
      select child.id from ${places} child join subtree on child.parent_id = subtree.id
    )
    select id::text as id from subtree`)) as unknown as { rows: Array<{ id: string }> }
  return rows.rows.map((row) => row.id)
}

/** How a hook is named on screens, reports and labels: its code and its board's name, by id. */
export async function hookRefs(
  db: Db,
  organizationId: string,
  hookIds: string[],
): Promise<Map<string, HookRef>> {
  const ids = [...new Set(hookIds)]
  // Stryker disable next-line ConditionalExpression: a query for no id finds nothing either; this spares the round trip
  if (ids.length === 0) return new Map()
  const rows = await db
    .select({ id: hooks.id, code: hooks.code, placeId: hooks.placeId, placeName: places.name })
    .from(hooks)
    .innerJoin(places, eq(places.id, hooks.placeId))
    .where(and(eq(hooks.organizationId, organizationId), inArray(hooks.id, ids)))
  return new Map(rows.map((row) => [row.id, row]))
}

/**
 * A keychain's hook columns once someone takes it (a pickup, a custody change): it is on no hook any more, and
 * its whereabouts are its holder's until it is hung again.
 */
export const OFF_THE_HOOK = { hookId: null, hookSeenAt: null, hookSeenById: null } as const

type WhereColumns = {
  custodianId: string | null
  transferStatus: 'SCHEDULED' | 'TRANSFERRED' | null
  homeHookId: string | null
  hookId: string | null
}

/**
 * Where a keychain is: HELD by someone (its custodian, or out on a transfer); MISPLACED when last seen on
 * another hook than its home (or on a hook, with no home); AT_HOME when it has a home and was last put on it or
 * on no hook since; UNKNOWN otherwise (no home, never seen on a hook). `whereaboutsSql` is the same rule in SQL
 * (the keychain list); a test holds the two together.
 */
export function whereabouts(row: WhereColumns): KeychainWhereabouts {
  if (row.custodianId || row.transferStatus === 'TRANSFERRED') return 'HELD'
  if (row.hookId && row.hookId !== row.homeHookId) return 'MISPLACED'
  if (row.homeHookId) return 'AT_HOME'
  return 'UNKNOWN'
}

/** `whereabouts` over the `keychains` row of the query. */
export const whereaboutsSql: SQL<KeychainWhereabouts> = sql<KeychainWhereabouts>`(case
  when ${keychains.custodianId} is not null or ${keychains.transferStatus} = 'TRANSFERRED' then 'HELD'
  when ${keychains.hookId} is not null and ${keychains.hookId} is distinct from ${keychains.homeHookId}
    then 'MISPLACED'
  when ${keychains.homeHookId} is not null then 'AT_HOME'
  else 'UNKNOWN' end)`
