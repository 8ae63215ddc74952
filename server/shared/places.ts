import { and, eq, inArray, sql } from 'drizzle-orm'
import type { HookRef } from '../../contract/places.ts'
import type { Db } from '../db/client.ts'
import { hooks, places } from '../db/schema.ts'

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
