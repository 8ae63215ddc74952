import { eq } from 'drizzle-orm'
import { permissionsFor } from '../../../contract/permissions.ts'
import type { TagLanding } from '../../../contract/tags.ts'
import { keychains, organizations, tags, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { CurrentSession } from '../../http/env.ts'
import { notFound } from '../../http/errors.ts'
import { memberRole } from '../../http/member-role.ts'
import { toPerson } from '../members/service.ts'
import { keyLinkOf, selectLinkedTags } from './list.ts'
import { toTag } from './service.ts'

/**
 * `GET /tags/{publicId}`: a member of the owning organization whose role may read tags sees the tag, its key,
 * keychain and custodian; anyone else (signed out, other organizations, CONTACTs) only the code and the
 * organization's name: never what the keys open, nor an address.
 */
export async function tagLanding(
  deps: Pick<AppDeps, 'database' | 'config'>,
  publicId: string,
  session: CurrentSession | null,
): Promise<TagLanding & { lostTagId?: string }> {
  const { db } = deps.database
  const [row] = await selectLinkedTags(db, eq(tags.publicId, publicId))
  if (!row) throw notFound('No such tag.')
  const [organization] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, row.tag.organizationId))
  if (!organization) throw notFound('No such tag.')
  const role = session ? await memberRole(db, session.user.id, organization.id) : null
  const permissions = permissionsFor(role)
  if (!permissions.includes('read__tag')) {
    return {
      view: 'found',
      code: row.tag.code,
      organization: { name: organization.name },
      ...(row.tag.lostAt ? { lostTagId: row.tag.id } : {}),
    }
  }
  let keychain: Extract<TagLanding, { view: 'member' }>['keychain'] = null
  if (row.keychainId && row.keychainName !== null) {
    const [custodian] = await db
      .select({ user: users })
      .from(keychains)
      .innerJoin(users, eq(users.id, keychains.custodianId))
      .where(eq(keychains.id, row.keychainId))
    keychain = {
      id: row.keychainId,
      name: row.keychainName,
      custodian: custodian ? toPerson(custodian.user) : null,
    }
  }
  return {
    view: 'member',
    tag: toTag(row.tag, keyLinkOf(row), deps.config.publicUrl),
    keychain,
    organization,
    permissions: [...permissions],
  }
}
