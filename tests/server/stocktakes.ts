import { keychains, keys, stocktakes } from '../../server/db/schema.ts'
import { makeTags } from './fixtures.ts'
import type { TestApp } from './harness.ts'
import { makePlace } from './places.ts'

/**
 * Keychains inserted directly, each with one tagged key and its home on the given hook (null: no home), as a
 * hook label's value and the tag's code say them to a scanner.
 */
export async function keychainsAtHome(
  t: TestApp,
  organizationId: string,
  homes: Array<string | null>,
  options: { custodianId?: string; name?: string } = {},
) {
  if (homes.length === 0) return []
  const now = t.clock.now()
  const made = await makeTags(t, organizationId, homes.length, 'STK')
  const rows = await t.db
    .insert(keychains)
    .values(
      homes.map((homeHookId, index) => ({
        organizationId,
        name: `${options.name ?? 'Keychain'} ${String(index + 1).padStart(4, '0')}`,
        custodianId: options.custodianId ?? null,
        homeHookId,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning()
  await t.db.insert(keys).values(
    rows.map((keychain, index) => ({
      keychainId: keychain.id,
      name: 'Key',
      type: 'TAG' as const,
      tagId: made[index]!.id,
      createdAt: now,
    })),
  )
  return rows.map((keychain, index) => ({ ...keychain, tag: made[index]! }))
}

/** A hook's label as its QR encodes it. */
export const hookLabel = (t: TestApp, hook: { publicId: string }) =>
  `${t.config.publicUrl}/h/${hook.publicId}`

/** An OPEN stocktake of a new place of the organization, inserted directly; gives its id. */
export async function openStocktake(t: TestApp, organizationId: string): Promise<string> {
  const place = await makePlace(t, organizationId, { kind: 'SITE', name: 'Stocktaken' })
  const [row] = await t.db
    .insert(stocktakes)
    .values({ organizationId, placeId: place.id, startedAt: t.clock.now() })
    .returning({ id: stocktakes.id })
  return row!.id
}
