import type { I18n, MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { ErrorCode } from '../../../contract/errors.ts'
import {
  HOOK_HOLDERS,
  HOOKS_PER_PLACE_MAX,
  PLACE_DEPTH_MAX,
  PLACE_KINDS,
  type Place,
  type PlaceKind,
  type StocktakeInterval,
} from '../../../contract/places.ts'
import { ApiError } from '../../lib/api.ts'
import { errorMessage } from '../../lib/error-message.ts'

export const PLACE_KIND_LABELS: Record<PlaceKind, MessageDescriptor> = {
  SITE: msg`Site`,
  ROOM: msg`Room`,
  BOARD: msg`Key board`,
  CABINET: msg`Key cabinet`,
}

export const STOCKTAKE_INTERVAL_LABELS: Record<StocktakeInterval, MessageDescriptor> = {
  MONTHLY: msg`Every month`,
  QUARTERLY: msg`Every three months`,
}

/** Whether places may go under `parent` (null: the top level): not under a board or cabinet, nor too deep. */
export function takesChildren(parent: Pick<Place, 'kind' | 'depth'> | null): boolean {
  return parent === null || (!HOOK_HOLDERS.has(parent.kind) && parent.depth < PLACE_DEPTH_MAX)
}

/** The kinds a new place under `parent` may have, and the one proposed first (a room in a site, a board in a room). */
export function childKinds(parent: Pick<Place, 'kind' | 'depth'> | null): {
  kinds: readonly PlaceKind[]
  proposed: PlaceKind
} {
  if (!takesChildren(parent)) return { kinds: [], proposed: 'SITE' }
  const proposed: PlaceKind = parent === null ? 'SITE' : parent.kind === 'SITE' ? 'ROOM' : 'BOARD'
  return { kinds: PLACE_KINDS, proposed }
}

/** The ids of a place and of every place under it, from the flat tree (parents before children). */
export function subtreeOf(places: readonly Place[], id: string): Set<string> {
  const ids = new Set([id])
  for (const place of places) if (place.parentId && ids.has(place.parentId)) ids.add(place.id)
  return ids
}

const BY_CODE: Partial<Record<string, MessageDescriptor>> = {
  [ErrorCode.placeTreeRefused]: msg`The tree does not allow it there: a board or cabinet holds hooks, not places; a place cannot go under itself; and the tree stops at ${PLACE_DEPTH_MAX} levels under a top-level place.`,
  [ErrorCode.placeInUse]: msg`It is still in use: places under it, keychains whose home is one of its hooks, or an open stocktake. Move or delete those first, or give the keychains another home.`,
  [ErrorCode.hooksRefused]: msg`Only a board or a cabinet has hooks, and at most ${HOOKS_PER_PLACE_MAX} each.`,
}

/** Why a change to the places was refused, in words, from the contract's error code. */
export function placeRefusal(error: unknown, i18n: I18n): string | undefined {
  const known = error instanceof ApiError ? BY_CODE[error.code] : undefined
  return known ? i18n._(known) : errorMessage(error, i18n)
}

/** Today on the organization's calendar (`YYYY-MM-DD`), to tell a due stocktake from an overdue one. */
export function todayIn(timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date())
}
