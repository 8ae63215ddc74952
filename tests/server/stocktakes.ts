import { randomBytes } from 'node:crypto'
import type { PlaceKind } from '../../contract/places.ts'
import { hooks, keychains, keys, places } from '../../server/db/schema.ts'
import { makeTags } from './fixtures.ts'
import type { TestApp } from './harness.ts'

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/** A location label's public id: 16 lowercase base32 characters. */
export const locationPublicId = () => [...randomBytes(16)].map((byte) => BASE32[byte % 32]).join('')

/** A place inserted directly (the places module has its own tests), under `parentId` when given. */
export async function makePlace(
  t: TestApp,
  organizationId: string,
  input: { name?: string; kind?: PlaceKind; parentId?: string | null } = {},
) {
  const now = t.clock.now()
  const kind = input.kind ?? 'BOARD'
  const [place] = await t.db
    .insert(places)
    .values({
      organizationId,
      parentId: input.parentId ?? null,
      kind,
      name: input.name ?? 'Board',
      publicId: kind === 'BOARD' || kind === 'CABINET' ? locationPublicId() : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  return place!
}

/** A board with `count` hooks coded `<prefix>01`…, in order. */
export async function makeBoard(
  t: TestApp,
  organizationId: string,
  input: { name?: string; prefix?: string; count?: number; parentId?: string | null } = {},
) {
  const board = await makePlace(t, organizationId, { name: input.name ?? 'Board', parentId: input.parentId })
  const count = input.count ?? 3
  const rows =
    count === 0
      ? []
      : await t.db
          .insert(hooks)
          .values(
            Array.from({ length: count }, (_, index) => ({
              organizationId,
              placeId: board.id,
              code: `${input.prefix ?? 'A-'}${String(index + 1).padStart(2, '0')}`,
              position: index + 1,
              publicId: locationPublicId(),
              createdAt: t.clock.now(),
            })),
          )
          .returning()
  return { board, hooks: rows.sort((a, b) => a.position - b.position) }
}

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
