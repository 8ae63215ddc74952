import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm'
import { TAG_PRODUCT_ID } from '../../../contract/commerce.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import type { TagLost } from '../../../contract/tags.ts'
import { cartItems, organizations, type TagRow, tagRetiredPublicIds, tags, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { OrganizationScope } from '../../http/access.ts'
import { ApiError, forbidden, notFound } from '../../http/errors.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { lostTagScanMail } from '../../mail/lost-tag-mail.ts'
import { activeMembersWith } from '../../shared/active-members.ts'
import { MAX_CART_ITEMS } from '../../shared/cart-limits.ts'
import { toPerson } from '../../shared/person.ts'
import { toTag } from '../../shared/tag-view.ts'
import { appendEvent } from '../events/append.ts'
import { keyLinkOf, selectLinkedTags } from './list.ts'
import { newPublicId } from './public-id.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config'>

/** A lost tag scanned again and again mails its organization's admins at most once in this window. */
export const LOST_SCAN_NOTICE_WINDOW_MS = 60 * 60 * 1000

async function tagOfScope(deps: Deps, scope: OrganizationScope, id: string) {
  const [row] = await selectLinkedTags(
    deps.database.db,
    and(eq(tags.id, id), eq(tags.organizationId, scope.organizationId)),
  )
  // Another organization's tag is as unknown as one that does not exist.
  if (!row) throw notFound('No such tag.')
  return row
}

async function answer(deps: Deps, row: Awaited<ReturnType<typeof tagOfScope>>): Promise<TagLost> {
  const [by] = row.tag.lostById
    ? await deps.database.db.select().from(users).where(eq(users.id, row.tag.lostById))
    : []
  return { tag: toTag(row.tag, keyLinkOf(row), deps.config.publicUrl), lostBy: by ? toPerson(by) : null }
}

/**
 * Declares the tag lost (`lost: true`) or found again: who and when are kept on the tag, and the ledger gets an
 * entry (its tag id also tells the devices' mirrors to fetch the tag again). Doing it twice changes nothing.
 */
export async function setTagLost(
  deps: Deps,
  input: { scope: OrganizationScope; userId: string; tagId: string; lost: boolean },
): Promise<TagLost> {
  const { db } = deps.database
  const now = deps.clock.now()
  await tagOfScope(deps, input.scope, input.tagId)
  await db.transaction(async (tx) => {
    const changed = await tx
      .update(tags)
      .set(
        input.lost
          ? { lostAt: now, lostById: input.userId, lostNoticeAt: null }
          : { lostAt: null, lostById: null, lostNoticeAt: null },
      )
      .where(and(eq(tags.id, input.tagId), input.lost ? isNull(tags.lostAt) : isNotNull(tags.lostAt)))
      .returning({ id: tags.id })
    if (changed.length === 0) return
    await appendEvent(tx, {
      organizationId: input.scope.organizationId,
      kind: input.lost ? 'tag.lost_declared' : 'tag.lost_undone',
      actorId: input.userId,
      serverTime: now,
      tagIds: [input.tagId],
    })
  })
  return answer(deps, await tagOfScope(deps, input.scope, input.tagId))
}

/**
 * A lost tag was scanned (in the app, or its QR opened by someone outside the organization): its organization's
 * ACTIVE ADMINs get a mail each, in their language, unless they were told about this tag within the last hour.
 * The claim of the window is one conditional update, so concurrent scans send one mail.
 */
export async function noticeLostTagScan(
  deps: Deps,
  tag: Pick<TagRow, 'id'>,
  { retired = false }: { retired?: boolean } = {},
): Promise<void> {
  const { db } = deps.database
  const now = deps.clock.now()
  const since = new Date(now.getTime() - LOST_SCAN_NOTICE_WINDOW_MS)
  const sent = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(tags)
      .set({ lostNoticeAt: now })
      .where(
        and(
          eq(tags.id, tag.id),
          // An old QR retired by a replacement is the lost print itself, whatever the tag's state now.
          retired ? undefined : isNotNull(tags.lostAt),
          or(isNull(tags.lostNoticeAt), lt(tags.lostNoticeAt, since)),
        ),
      )
      .returning()
    if (!claimed) return false
    const [organization] = await tx
      .select({ name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, claimed.organizationId))
    const admins = await activeMembersWith(tx, claimed.organizationId, ['ADMIN'])
    await enqueueJobs(
      tx,
      admins.map((admin) =>
        mailJob(
          lostTagScanMail({
            to: admin.email,
            locale: admin.locale,
            publicUrl: deps.config.publicUrl,
            organizationName: organization?.name ?? '',
            tag: claimed,
          }),
          { now, organizationId: claimed.organizationId },
        ),
      ),
    )
    return admins.length > 0
  })
  if (sent) deps.jobs.nudge()
}

/**
 * One step to reprint a tag: a TAG line of one tag with its code, name and colours, marked as the replacement
 * of this tag, goes into the caller's cart. Paid, it gives the same tag a new QR (`replaceTag`).
 */
export async function orderTagReplacement(
  deps: Deps,
  input: { scope: OrganizationScope; userId: string; tagId: string },
): Promise<{ cartItemId: string }> {
  if (!input.scope.permissions.includes('create__order')) throw forbidden()
  const { tag } = await tagOfScope(deps, input.scope, input.tagId)
  const owner = { userId: input.userId, organizationId: input.scope.organizationId }
  return deps.database.db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: cartItems.id, configuration: cartItems.configuration })
      .from(cartItems)
      .where(and(eq(cartItems.userId, owner.userId), eq(cartItems.organizationId, owner.organizationId)))
    const already = rows.find(
      (row) => (row.configuration as { replacesTagId?: string }).replacesTagId === tag.id,
    )
    if (already) return { cartItemId: already.id }
    if (rows.length >= MAX_CART_ITEMS) {
      throw new ApiError(409, ErrorCode.conflict, `A cart holds ${MAX_CART_ITEMS} items at most.`)
    }
    const [created] = await tx
      .insert(cartItems)
      .values({
        ...owner,
        productType: 'TAG',
        productRefId: TAG_PRODUCT_ID,
        quantity: 1,
        configuration: {
          name: tag.name,
          alphaCode: tag.alphaCode,
          startNumber: tag.number,
          foregroundColor: tag.foregroundColor,
          backgroundColor: tag.backgroundColor,
          replacesTagId: tag.id,
        },
        createdAt: deps.clock.now(),
      })
      .returning({ id: cartItems.id })
    return { cartItemId: created!.id }
  })
}

/**
 * A paid replacement line: the tag keeps its row, code, key and history, and gets a new public id (the new
 * QR), linked to this order for printing; its old public id is retired (scanned, it answers `lost`) and the
 * tag is no longer lost. A tag no longer in the organization is skipped.
 */
export async function replaceTag(
  tx: Deps['database']['db'],
  input: { organizationId: string; tagId: string; orderId: string; now: Date },
): Promise<string | null> {
  const [old] = await tx
    .select({ publicId: tags.publicId })
    .from(tags)
    .where(and(eq(tags.id, input.tagId), eq(tags.organizationId, input.organizationId)))
    .for('update')
  if (!old) return null
  await tx
    .insert(tagRetiredPublicIds)
    .values({ publicId: old.publicId, tagId: input.tagId, retiredAt: input.now })
  await tx
    .update(tags)
    .set({
      publicId: newPublicId(),
      orderId: input.orderId,
      lostAt: null,
      lostById: null,
      lostNoticeAt: null,
    })
    .where(eq(tags.id, input.tagId))
  await appendEvent(tx, {
    organizationId: input.organizationId,
    kind: 'tag.replaced',
    actorId: null,
    serverTime: input.now,
    tagIds: [input.tagId],
    payload: { orderId: input.orderId },
  })
  return input.tagId
}
