import type { Tag } from '../../contract/tags.ts'
import type { TagRow } from '../db/schema.ts'

/** A tag's public address: what its QR code holds. */
export const tagUrl = (publicUrl: string, publicId: string) =>
  `${publicUrl.replace(/\/+$/, '')}/tags/${publicId}`

export type TagKeyLink = { id: string; name: string; keychainId: string; keychainName: string } | null

/** What a tag's answer is made of. */
export type TagFields = Pick<
  TagRow,
  'id' | 'publicId' | 'code' | 'name' | 'foregroundColor' | 'backgroundColor' | 'createdAt'
>

/** What every answer about a tag says of it: its codes, colours and the address its QR encodes. */
export function tagPrint(row: Omit<TagFields, 'createdAt'>, publicUrl: string) {
  return {
    id: row.id,
    publicId: row.publicId,
    code: row.code,
    name: row.name,
    foregroundColor: row.foregroundColor,
    backgroundColor: row.backgroundColor,
    url: tagUrl(publicUrl, row.publicId),
  }
}

export function toTag(row: TagFields & { lostAt?: Date | null }, key: TagKeyLink, publicUrl: string): Tag {
  return {
    ...tagPrint(row, publicUrl),
    key,
    createdAt: row.createdAt.toISOString(),
    ...(row.lostAt ? { lostAt: row.lostAt.toISOString() } : {}),
  }
}
