import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { type KeychainRow, keychains } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'

/**
 * The keychain if it belongs to the organization; another organization's keychain is a 404, never a 403.
 * `lock`: read it `FOR UPDATE` (inside a transaction), so a concurrent change waits and sees this one's result.
 * A deleted keychain is a 404 too, unless `deleted` asks for one (a restore): then only a deleted one is found.
 */
export async function findKeychain(
  db: Db,
  organizationId: string,
  id: string,
  options: { lock?: boolean; deleted?: boolean } = {},
): Promise<KeychainRow> {
  const query = db
    .select()
    .from(keychains)
    .where(
      and(
        eq(keychains.id, id),
        eq(keychains.organizationId, organizationId),
        options.deleted ? isNotNull(keychains.deletedAt) : isNull(keychains.deletedAt),
      ),
    )
  const [row] = options.lock ? await query.for('update') : await query
  if (!row) throw notFound('No such keychain.')
  return row
}
