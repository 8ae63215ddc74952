import { and, eq, lt, ne, or, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { memberships, sessions, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import type { CurrentSession } from '../../http/env.ts'
import { keyedHash, newSessionId } from '../../shared/secret-tokens.ts'

const DAY = 24 * 60 * 60 * 1000
const SESSION_ABSOLUTE_MS = 30 * DAY
const SESSION_IDLE_MS = 7 * DAY
/** The idle clock slides, but writing last_used_at on every request would cost a write per read. */
const SESSION_TOUCH_INTERVAL_MS = 60_000

type Deps = Pick<AppDeps, 'database' | 'clock' | 'secret'>

export function sessionIdHash(deps: Pick<Deps, 'secret'>, sessionId: string): string {
  return keyedHash(deps.secret, 'session', sessionId)
}

export async function createSession(
  deps: Deps,
  userId: string,
  userAgent: string | undefined,
): Promise<{ sessionId: string; expiresAt: Date }> {
  const now = deps.clock.now()
  const sessionId = newSessionId()
  const expiresAt = new Date(now.getTime() + SESSION_ABSOLUTE_MS)
  await deps.database.db.insert(sessions).values({
    idHash: sessionIdHash(deps, sessionId),
    userId,
    createdAt: now,
    lastUsedAt: now,
    expiresAt,
    userAgent: userAgent?.slice(0, 256) ?? null,
  })
  return { sessionId, expiresAt }
}

/**
 * The session, its user and the role in their selected organization (most routes need it: it comes along in
 * the same round trip). A named prepared statement: the statement every signed-in request runs is parsed and
 * planned once per connection, not per request.
 */
function prepareSessionLookup(db: Db) {
  return db
    .select({ session: sessions, user: users, selectedRole: memberships.role })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      memberships,
      and(
        eq(memberships.userId, users.id),
        eq(memberships.organizationId, users.selectedOrganizationId),
        ne(memberships.status, 'DISABLED'),
      ),
    )
    .where(eq(sessions.idHash, sql.placeholder('idHash')))
    .prepare('session_lookup')
}

const sessionLookups = new WeakMap<Db, ReturnType<typeof prepareSessionLookup>>()

/** The caller behind a cookie value, or null when unknown, idle too long or past its absolute lifetime. */
export async function resolveSession(deps: Deps, sessionId: string): Promise<CurrentSession | null> {
  const { db } = deps.database
  const now = deps.clock.now()
  const idHash = sessionIdHash(deps, sessionId)
  let lookup = sessionLookups.get(db)
  if (!lookup) {
    lookup = prepareSessionLookup(db)
    sessionLookups.set(db, lookup)
  }
  const [row] = await lookup.execute({ idHash })
  if (!row) return null
  const idleSince = now.getTime() - row.session.lastUsedAt.getTime()
  if (row.session.expiresAt <= now || idleSince >= SESSION_IDLE_MS) {
    await db.delete(sessions).where(eq(sessions.idHash, idHash))
    return null
  }
  if (idleSince >= SESSION_TOUCH_INTERVAL_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.idHash, idHash))
    await db.update(users).set({ lastSeenAt: now }).where(eq(users.id, row.user.id))
  }
  return { idHash, user: row.user, selectedRole: row.selectedRole }
}

export async function deleteSession(deps: Pick<Deps, 'database'>, idHash: string): Promise<void> {
  await deps.database.db.delete(sessions).where(eq(sessions.idHash, idHash))
}

export async function pruneSessions(deps: Pick<Deps, 'database'>, now: Date): Promise<void> {
  await deps.database.db
    .delete(sessions)
    .where(
      or(lt(sessions.expiresAt, now), lt(sessions.lastUsedAt, new Date(now.getTime() - SESSION_IDLE_MS))),
    )
}
