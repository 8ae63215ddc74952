import { eq } from 'drizzle-orm'
import { permissionsFor } from '../../../contract/permissions.ts'
import type { TagLanding } from '../../../contract/tags.ts'
import type { Db } from '../../db/client.ts'
import { keychains, organizations, tagRetiredPublicIds, tags, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { CurrentSession } from '../../http/env.ts'
import { notFound } from '../../http/errors.ts'
import { memberRole } from '../../http/member-role.ts'
import { toPerson } from '../../shared/person.ts'
import { toTag } from '../../shared/tag-view.ts'
import { keyLinkOf, selectLinkedTags } from './list.ts'

/**
 * `GET /tags/{publicId}`: a member of the owning organization whose role may read tags sees the tag, its key,
 * keychain and custodian; anyone else (signed out, other organizations, CONTACTs) only the code and the
 * organization's name: never what the keys open, nor an address.
 */
export async function tagLanding(
  deps: Pick<AppDeps, 'database' | 'config'>,
  publicId: string,
  session: CurrentSession | null,
): Promise<TagLanding & { lostTagId?: string; retired?: boolean }> {
  const { db } = deps.database
  const [row] = await selectLinkedTags(db, eq(tags.publicId, publicId))
  if (!row) return retiredLanding(db, publicId)
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

/**
 * An old QR code, replaced after it was lost (`tag_retired_public_ids`): whoever opens it, members included, gets
 * the finder's page (never the keychain), and its organization is told it was seen.
 */
async function retiredLanding(
  db: Db,
  publicId: string,
): Promise<TagLanding & { lostTagId?: string; retired?: boolean }> {
  const [retired] = await db
    .select({ tagId: tags.id, code: tags.code, organizationName: organizations.name })
    .from(tagRetiredPublicIds)
    .innerJoin(tags, eq(tags.id, tagRetiredPublicIds.tagId))
    .innerJoin(organizations, eq(organizations.id, tags.organizationId))
    .where(eq(tagRetiredPublicIds.publicId, publicId))
  if (!retired) throw notFound('No such tag.')
  return {
    view: 'found',
    code: retired.code,
    organization: { name: retired.organizationName },
    lostTagId: retired.tagId,
    retired: true,
  }
}
