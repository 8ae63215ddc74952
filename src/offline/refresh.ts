import type * as v from 'valibot'
import { KeychainPageSchema } from '../../contract/keychains.ts'
import { TagPageSchema } from '../../contract/tags.ts'
import { TransferPageSchema } from '../../contract/transfers.ts'
import { api } from '../lib/api.ts'
import type { FieldContext } from './field.ts'
import { mirrorKeychainSummaries, mirrorTags, mirrorTransfers } from './mirror.ts'

/** At most this many pages of 100 per list: a mirror of 2 000 keychains, tags and transfers. */
const MAX_PAGES = 20

async function everyPage<T extends v.GenericSchema>(
  path: string,
  schema: T,
  keep: (rows: never[]) => Promise<void>,
) {
  let cursor: string | null = null
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const separator = path.includes('?') ? '&' : '?'
    const url = `${path}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const answer = (await api(url, { schema })) as { data: never[]; nextCursor: string | null }
    await keep(answer.data)
    cursor = answer.nextCursor
    if (!cursor) return
  }
}

/**
 * Fills the mirror with what field screens need, for the selected organization and the signed-in user, as far
 * as their role may read it: tags, keychains, the organization's transfers and the transfers addressed to them.
 */
export async function refreshMirror(context: FieldContext): Promise<void> {
  const can = (permission: string) => context.permissions.includes(permission)
  const { organizationId, userId } = context
  if (can('read__tag'))
    await everyPage(`/organizations/${organizationId}/tags`, TagPageSchema, (rows) =>
      mirrorTags(organizationId, rows),
    )
  if (can('read__keychain'))
    await everyPage('/keychains', KeychainPageSchema, (rows) => mirrorKeychainSummaries(organizationId, rows))
  if (can('read__transfer'))
    await everyPage('/transfers', TransferPageSchema, (rows) => mirrorTransfers(rows, userId))
  await everyPage('/transfers/requests', TransferPageSchema, (rows) => mirrorTransfers(rows, userId))
}
