import { and, asc, eq, inArray } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Label } from '../../../contract/labels.ts'
import { HOOK_HOLDERS, type HookLabelPrint, hookLabelUrl, placeLabelUrl } from '../../../contract/places.ts'
import type { Db } from '../../db/client.ts'
import { hooks, places } from '../../db/schema.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { findPlace } from './tree.ts'

/** Location labels print black on white: thermal printers print nothing else, and a QR reads best so. */
const INK = { foregroundColor: '#000000', backgroundColor: '#ffffff' }

/**
 * The labels of a board's (or cabinet's) hooks, in position order (all, or those chosen: each must be one of
 * its hooks, else 404), after the board's own label unless `withPlace` is false. A hook's label shows its code
 * large and the board's name small; the board's shows its name large and the place it is in small. Labels are
 * those of tag reprints (`Label`), drawn by the same code on the same geometry.
 */
export async function placeLabels(
  db: Db,
  organizationId: string,
  placeId: string,
  print: Pick<HookLabelPrint, 'hookIds' | 'withPlace'>,
  publicUrl: string,
): Promise<Label[]> {
  const place = await findPlace(db, organizationId, placeId)
  if (!HOOK_HOLDERS.has(place.kind) || !place.publicId)
    throw new ApiError(409, ErrorCode.hooksRefused, 'Only a board or a cabinet has labels to print.')
  const chosen = print.hookIds ? [...new Set(print.hookIds)] : undefined
  const rows = await db
    .select({ id: hooks.id, code: hooks.code, publicId: hooks.publicId })
    .from(hooks)
    .where(and(eq(hooks.placeId, place.id), chosen ? inArray(hooks.id, chosen) : undefined))
    .orderBy(asc(hooks.position), asc(hooks.code))
  if (chosen && rows.length !== chosen.length) throw notFound('Some of these hooks are not on this board.')
  const labels: Label[] = rows.map((hook) => ({
    id: hook.id,
    code: hook.code,
    name: place.name,
    url: hookLabelUrl(publicUrl, hook.publicId),
    ...INK,
  }))
  if (print.withPlace ?? true) {
    const [parent] = place.parentId
      ? await db.select({ name: places.name }).from(places).where(eq(places.id, place.parentId))
      : []
    labels.unshift({
      id: place.id,
      code: place.name,
      name: parent?.name ?? '',
      url: placeLabelUrl(publicUrl, place.publicId),
      ...INK,
    })
  }
  if (labels.length === 0)
    throw new ApiError(400, ErrorCode.labelSelectionEmpty, 'This board has no hooks yet: nothing to print.')
  return labels
}
