import { and, eq, isNull } from 'drizzle-orm'
import type { CalendarFeed, CalendarFeedScope } from '../../../contract/calendar.ts'
import { ErrorCode } from '../../../contract/errors.ts'
import { permissionsFor, type Role } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import { type CalendarFeedRow, calendarFeeds, organizations, type UserRow, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { memberRole } from '../../http/member-role.ts'
import { keyedHash, newLinkToken } from '../../shared/secret-tokens.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'secret' | 'config'>

/** An organization's calendar shows every transfer: those who authorize transfers may have one. */
const mayFollowOrganization = (role: Role | null) =>
  role !== null && permissionsFor(role).includes('create__transfer')

export const feedUrl = (publicUrl: string, token: string) =>
  `${publicUrl.replace(/\/+$/, '')}/api/calendar/${token}.ics`

function toFeed(row: CalendarFeedRow, organizationName: string | null, url: string | null): CalendarFeed {
  return {
    id: row.id,
    scope: row.scope,
    organizationId: row.organizationId,
    organizationName,
    createdAt: row.createdAt.toISOString(),
    url,
  }
}

/** The caller's feeds that still work, newest first. */
export async function listFeeds(db: Db, userId: string): Promise<CalendarFeed[]> {
  const rows = await db
    .select({ feed: calendarFeeds, organizationName: organizations.name })
    .from(calendarFeeds)
    .leftJoin(organizations, eq(organizations.id, calendarFeeds.organizationId))
    .where(and(eq(calendarFeeds.userId, userId), isNull(calendarFeeds.revokedAt)))
  return rows
    .sort((a, b) => b.feed.createdAt.getTime() - a.feed.createdAt.getTime())
    .map((row) => toFeed(row.feed, row.organizationName, null))
}

/**
 * `POST /calendar-feeds`: a new feed and, this once, its address. An organization feed is of the selected
 * organization, for an admin or manager there (403 otherwise).
 */
export async function createFeed(
  deps: Deps,
  input: { user: UserRow; role: Role | null; scope: CalendarFeedScope },
): Promise<CalendarFeed> {
  const { db } = deps.database
  const organizationId = input.scope === 'organization' ? input.user.selectedOrganizationId : null
  if (input.scope === 'organization') {
    if (!organizationId)
      throw new ApiError(409, ErrorCode.noOrganizationSelected, 'Select an organization first.')
    if (!mayFollowOrganization(input.role)) {
      throw new ApiError(
        403,
        ErrorCode.forbidden,
        "Only an organization's admins and managers follow all its transfers.",
      )
    }
  }
  const token = newLinkToken()
  const [row] = await db
    .insert(calendarFeeds)
    .values({
      userId: input.user.id,
      scope: input.scope,
      organizationId,
      tokenHash: keyedHash(deps.secret, 'calendar', token),
      createdAt: deps.clock.now(),
    })
    .returning()
  if (!row) throw new Error('calendar feed insert returned no row')
  const [organization] = organizationId
    ? await db
        .select({ name: organizations.name })
        .from(organizations)
        .where(eq(organizations.id, organizationId))
    : []
  return toFeed(row, organization?.name ?? null, feedUrl(deps.config.publicUrl, token))
}

/** `DELETE /calendar-feeds/{id}`: the caller's own feed stops answering; anyone else's is a 404. */
export async function revokeFeed(deps: Deps, userId: string, id: string): Promise<void> {
  const revoked = await deps.database.db
    .update(calendarFeeds)
    .set({ revokedAt: deps.clock.now() })
    .where(and(eq(calendarFeeds.id, id), eq(calendarFeeds.userId, userId), isNull(calendarFeeds.revokedAt)))
    .returning({ id: calendarFeeds.id })
  if (revoked.length === 0) throw notFound('No such calendar feed.')
}

/**
 * The feed a token opens, with its owner: null for an unknown or revoked token, or an organization feed whose
 * owner no longer manages that organization's transfers.
 */
export async function feedOfToken(
  deps: Pick<Deps, 'database' | 'secret'>,
  token: string,
): Promise<{ feed: CalendarFeedRow; owner: UserRow } | null> {
  const { db } = deps.database
  const [row] = await db
    .select()
    .from(calendarFeeds)
    .where(
      and(
        eq(calendarFeeds.tokenHash, keyedHash(deps.secret, 'calendar', token)),
        isNull(calendarFeeds.revokedAt),
      ),
    )
  if (!row) return null
  const [owner] = await db.select().from(users).where(eq(users.id, row.userId))
  if (!owner) return null
  if (row.organizationId && !mayFollowOrganization(await memberRole(db, owner.id, row.organizationId)))
    return null
  return { feed: row, owner }
}
