import type { Key } from '../../contract/keychains.ts'
import type { KeyRow } from '../db/schema.ts'

/** A key as answers show it: its tag only when it is a tag key. */
export function toKey(
  row: KeyRow,
  tag: { id: string; publicId: string; code: string; name: string } | null,
): Key {
  return { id: row.id, name: row.name, type: row.type, tag: row.type === 'TAG' ? tag : null }
}
