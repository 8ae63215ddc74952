import * as v from 'valibot'
import { ErrorCode } from '../../../contract/errors.ts'
import { ApiError } from '../../http/errors.ts'

/** What the snapshot reads, in this order (what the role may not read is skipped). */
export const SNAPSHOT_ENTITIES = ['tags', 'keychains', 'transfers'] as const
export type SnapshotEntity = (typeof SNAPSHOT_ENTITIES)[number]

/** Bumped when the rows the feed sends change shape: older cursors then start over. */
const CURSOR_VERSION = 1

const CursorSchema = v.object({
  v: v.literal(CURSOR_VERSION),
  /** Organization, user and role it was issued for: any change means a full sync. */
  o: v.string(),
  u: v.string(),
  r: v.string(),
  /** Issued at (ms since epoch), for the retention. */
  t: v.number(),
  /** The last event of the organization the device has (while snapshotting: the one the snapshot started at). */
  s: v.pipe(v.number(), v.integer(), v.minValue(0)),
  /** While snapshotting: the entity being read, the last key sent, rows sent and in all. */
  p: v.optional(
    v.object({
      e: v.picklist(SNAPSHOT_ENTITIES),
      a: v.nullable(v.string()),
      d: v.number(),
      n: v.number(),
    }),
  ),
})
export type SyncCursor = v.InferOutput<typeof CursorSchema>
export type CursorInput = Omit<SyncCursor, 'v'>

export function encodeSyncCursor(cursor: CursorInput): string {
  return Buffer.from(JSON.stringify({ v: CURSOR_VERSION, ...cursor })).toString('base64url')
}

/** The cursor, or null for one of an older version (start over); 400 for anything malformed. */
export function decodeSyncCursor(text: string): SyncCursor | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'))
  } catch {
    throw malformed()
  }
  if (typeof parsed === 'object' && parsed !== null && 'v' in parsed && parsed.v !== CURSOR_VERSION)
    return null
  const result = v.safeParse(CursorSchema, parsed)
  if (!result.success) throw malformed()
  return result.output
}

const malformed = () => new ApiError(400, ErrorCode.validation, 'Malformed cursor.')
