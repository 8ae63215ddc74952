import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import { LABEL_PRINT_MAX, type Label, type LabelSelection } from '../../../contract/labels.ts'
import { TAG_CODE_PATTERN } from '../../../contract/tags.ts'
import type { Db } from '../../db/client.ts'
import { keys, tags } from '../../db/schema.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { likeContains } from '../../http/pagination.ts'
import { tagUrl } from '../../shared/tag-view.ts'

const labelColumns = {
  id: tags.id,
  code: tags.code,
  name: tags.name,
  publicId: tags.publicId,
  foregroundColor: tags.foregroundColor,
  backgroundColor: tags.backgroundColor,
}

/**
 * The organization's existing tags a reprint names, in code order. Chosen ids must all be the organization's
 * (any other is a 404, as another organization's tag is everywhere); a filter is the tags list's (`q`, `unused`)
 * and must match between 1 and `LABEL_PRINT_MAX` tags (400 otherwise, saying which).
 */
export async function selectLabels(
  db: Db,
  organizationId: string,
  selection: LabelSelection,
  publicUrl: string,
): Promise<Label[]> {
  let rows: Array<{ [K in keyof typeof labelColumns]: string }>
  if (selection.by === 'ids') {
    const ids = [...new Set(selection.ids)]
    rows = await db
      .select(labelColumns)
      .from(tags)
      .where(and(eq(tags.organizationId, organizationId), inArray(tags.id, ids)))
      .orderBy(asc(tags.code))
    if (rows.length !== ids.length) throw notFound('Some of these tags do not exist.')
  } else {
    const code = selection.q?.trim().toUpperCase()
    const exact = code !== undefined && TAG_CODE_PATTERN.test(code) ? code : undefined
    const pattern = selection.q && !exact ? likeContains(selection.q) : undefined
    const query = db.select(labelColumns).from(tags)
    rows = await (selection.unused === 'true' ? query.leftJoin(keys, eq(keys.tagId, tags.id)) : query)
      .where(
        and(
          eq(tags.organizationId, organizationId),
          selection.unused === 'true' ? isNull(keys.id) : undefined,
          exact ? eq(tags.code, exact) : undefined,
          pattern
            ? or(sql`lower(${tags.code}) like ${pattern}`, sql`lower(${tags.name}) like ${pattern}`)
            : undefined,
        ),
      )
      .orderBy(asc(tags.code))
      .limit(LABEL_PRINT_MAX + 1)
    if (rows.length === 0)
      throw new ApiError(400, ErrorCode.labelSelectionEmpty, 'No tag matches this filter: nothing to print.')
    if (rows.length > LABEL_PRINT_MAX)
      throw new ApiError(
        400,
        ErrorCode.labelSelectionTooLarge,
        `More than ${LABEL_PRINT_MAX} tags match this filter: narrow it, or print them in parts.`,
      )
  }
  return rows.map(({ publicId, ...row }) => ({ ...row, url: tagUrl(publicUrl, publicId) }))
}
