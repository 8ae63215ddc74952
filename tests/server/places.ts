import { asc, eq } from 'drizzle-orm'
import type { PlaceKind } from '../../contract/places.ts'
import { hooks, keychains, organizationEvents, places } from '../../server/db/schema.ts'
import { newLocationPublicId } from '../../server/modules/places/public-id.ts'
import { hookCode } from '../../server/modules/places/service.ts'
import type { TestApp } from './harness.ts'

/** A place inserted directly (the endpoint has its own tests): at the top or under `parentId`, `id` if given. */
export async function makePlace(
  t: TestApp,
  organizationId: string,
  input: { id?: string; name?: string; kind?: PlaceKind; parentId?: string | null; depth?: number } = {},
) {
  const now = t.clock.now()
  const kind = input.kind ?? 'BOARD'
  const [row] = await t.db
    .insert(places)
    .values({
      id: input.id,
      organizationId,
      parentId: input.parentId ?? null,
      kind,
      name: input.name ?? 'Board',
      depth: input.depth ?? 0,
      publicId: kind === 'BOARD' || kind === 'CABINET' ? newLocationPublicId() : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  return row!
}

/** A board with `count` hooks `A-01`… inserted directly; gives the board and its hooks in order. */
export async function makeBoard(
  t: TestApp,
  organizationId: string,
  options: { name?: string; count?: number; prefix?: string; parentId?: string | null; depth?: number } = {},
) {
  const board = await makePlace(t, organizationId, {
    name: options.name ?? 'Board',
    kind: 'BOARD',
    parentId: options.parentId ?? null,
    depth: options.depth ?? 0,
  })
  const count = options.count ?? 3
  const made =
    count === 0
      ? []
      : await t.db
          .insert(hooks)
          .values(
            Array.from({ length: count }, (_, index) => ({
              organizationId,
              placeId: board.id,
              code: hookCode(options.prefix ?? 'A-', index + 1, 2),
              position: index + 1,
              publicId: newLocationPublicId(),
              createdAt: t.clock.now(),
            })),
          )
          .returning()
  return { board, hooks: made.sort((a, b) => a.position - b.position) }
}

/** Makes `hookId` the keychain's home, directly. */
export async function setHome(t: TestApp, keychainId: string, hookId: string | null) {
  await t.db.update(keychains).set({ homeHookId: hookId }).where(eq(keychains.id, keychainId))
}

/** The organization's events of these kinds, oldest first. */
export async function eventsOf(t: TestApp, organizationId: string, kinds: string[]) {
  const rows = await t.db
    .select()
    .from(organizationEvents)
    .where(eq(organizationEvents.organizationId, organizationId))
    .orderBy(asc(organizationEvents.seq))
  return rows.filter((row) => kinds.includes(row.kind))
}
