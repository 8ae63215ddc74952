import { and, count, eq, ne, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Member, MemberUpdate } from '../../../contract/organizations.ts'
import { permissionsFor } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import {
  cartItems,
  type MembershipRow,
  memberships,
  organizations,
  sessions,
  users,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, forbidden, notFound } from '../../http/errors.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { revokeTokensOfFormerAdmin } from '../api-tokens/service.ts'
import { appendEvent } from '../events/append.ts'
import { leaverAlertJobs } from './leavers.ts'
import { findMembership, isOwnInvitee, toMember } from './service.ts'

const conflict = (message: string) => new ApiError(409, ErrorCode.conflict, message)

async function otherActiveAdmins(db: Db, organizationId: string, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        ne(memberships.userId, userId),
        eq(memberships.role, 'ADMIN'),
        eq(memberships.status, 'ACTIVE'),
      ),
    )
  return row?.n ?? 0
}

async function hasOtherMemberships(db: Db, organizationId: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        ne(memberships.organizationId, organizationId),
        ne(memberships.status, 'DISABLED'),
      ),
    )
  return (row?.n ?? 0) > 0
}

/** The actor may still edit members: re-read under the organization lock, so a demotion that won counts. */
async function assertStillAdmin(db: Db, organizationId: string, actorId: string): Promise<void> {
  const [actor] = await db
    .select({ role: memberships.role, status: memberships.status })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, actorId)))
  if (!actor || actor.status === 'DISABLED' || !permissionsFor(actor.role).includes('update__member')) {
    throw forbidden()
  }
}

/**
 * An ADMIN edits a member (the route requires `update__member`, which only ADMINs hold). Names and e-mail
 * belong to the account: an ADMIN may change them only while the account is the organization's own invitee
 * (INVITED, never signed in, no membership in another organization; `isOwnInvitee`), 409 otherwise — the
 * person edits their own profile. The last ACTIVE ADMIN can be neither demoted nor disabled. The organization
 * row is locked for the change and the actor's own membership re-read under that lock (403 when they lost
 * the right meanwhile), so two admins demoting each other at once cannot leave it without one, and an admin
 * demoted a moment ago cannot still commit a change.
 *
 * Disabling ends the member's sessions when this was their last membership not disabled; otherwise they stay
 * signed in for their other organizations and simply lose this one (every request checks the membership).
 * Disabling an INVITED member revokes the invitation. A new role without `manage__subscription` takes the
 * PLAN lines out of the member's cart there. An ADMIN demoted or disabled loses the organization's API tokens
 * they made, for good. Disabling someone who still holds keychains or has transfers open tells the admins at once
 * (the leaver alert, `leaverAlertJobs`).
 */
export async function updateMember(
  deps: Pick<AppDeps, 'database' | 'clock' | 'config' | 'jobs'>,
  input: { organizationId: string; actorId: string; userId: string; update: MemberUpdate },
): Promise<Member> {
  const { organizationId, userId, update } = input
  const now = deps.clock.now()
  let nudge = false
  const member = await deps.database.db.transaction(async (tx) => {
    await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update')
    await assertStillAdmin(tx, organizationId, input.actorId)
    const current = await findMembership(tx, organizationId, userId)
    if (!current) throw notFound('No such member.')
    const { user, membership } = current
    const ownInvitee = isOwnInvitee(current)

    const renames =
      (update.firstName !== undefined && update.firstName !== user.firstName) ||
      (update.lastName !== undefined && update.lastName !== user.lastName)
    if (renames && !ownInvitee) {
      throw new ApiError(
        409,
        ErrorCode.memberNamesLocked,
        'The name can change only while the member is invited and has not signed in yet: afterwards it is theirs to change in their profile.',
      )
    }
    const email = update.email !== undefined && update.email !== user.email ? update.email : undefined
    if (email !== undefined) {
      if (membership.status !== 'INVITED' || user.signedInAt !== null) {
        throw conflict('The e-mail can change only while the member has not signed in yet.')
      }
      if (!ownInvitee) {
        throw conflict('This person belongs to other organizations too: their e-mail cannot change here.')
      }
      const [taken] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email))
      if (taken) throw conflict('Another account already uses this e-mail.')
    }

    const role = update.role ?? membership.role
    const status = nextStatus(membership.status, update.status)
    const losesAdmin = membership.role === 'ADMIN' && membership.status === 'ACTIVE'
    if (losesAdmin && (role !== 'ADMIN' || status !== 'ACTIVE')) {
      if ((await otherActiveAdmins(tx, organizationId, userId)) === 0) {
        throw conflict(
          'The organization needs at least one active administrator: make someone else administrator first.',
        )
      }
    }

    const names = {
      ...(renames && update.firstName !== undefined ? { firstName: update.firstName } : {}),
      ...(renames && update.lastName !== undefined ? { lastName: update.lastName } : {}),
      ...(email !== undefined ? { email } : {}),
    }
    if (Object.keys(names).length > 0) await tx.update(users).set(names).where(eq(users.id, userId))
    if (role !== membership.role || status !== membership.status) {
      await tx
        .update(memberships)
        .set({ role, status })
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
      if (role !== 'ADMIN' || status === 'DISABLED') {
        await revokeTokensOfFormerAdmin(tx, { userId, organizationId }, deps.clock.now())
      }
    }
    if (role !== membership.role && !permissionsFor(role).includes('manage__subscription')) {
      // Only those who manage the subscription buy plans: a plan in the cart leaves with the right.
      await tx
        .delete(cartItems)
        .where(
          and(
            eq(cartItems.userId, userId),
            eq(cartItems.organizationId, organizationId),
            eq(cartItems.productType, 'PLAN'),
          ),
        )
    }
    if (status === 'DISABLED' && membership.status !== 'DISABLED') {
      await tx
        .update(users)
        .set({ selectedOrganizationId: null })
        .where(and(eq(users.id, userId), sql`${users.selectedOrganizationId} = ${organizationId}`))
      // Leaving an organization empties the cart there (switching organizations keeps each cart).
      await tx
        .delete(cartItems)
        .where(and(eq(cartItems.userId, userId), eq(cartItems.organizationId, organizationId)))
      if (!(await hasOtherMemberships(tx, organizationId, userId))) {
        await tx.delete(sessions).where(eq(sessions.userId, userId))
      }
      const alert = await leaverAlertJobs(tx, {
        organizationId,
        userId,
        now,
        publicUrl: deps.config.publicUrl,
      })
      await enqueueJobs(tx, alert)
      nudge = alert.length > 0
    }
    const changed = [
      ...(role !== membership.role ? ['role'] : []),
      ...(status !== membership.status ? ['status'] : []),
      ...Object.keys(names),
    ]
    if (changed.length > 0)
      await appendEvent(tx, {
        organizationId,
        kind: 'member.changed',
        actorId: input.actorId,
        serverTime: deps.clock.now(),
        payload: { memberId: userId, changed, role, status },
      })
    const updated = await findMembership(tx, organizationId, userId)
    if (!updated) throw new Error('member vanished')
    return toMember(updated)
  })
  if (nudge) deps.jobs.nudge()
  return member
}

/**
 * ACTIVE on a DISABLED member enables them again as INVITED: the membership becomes ACTIVE at their next
 * sign-in, like an invitation (so disabling and enabling an invitee never makes them ACTIVE, which would show
 * their names, without them signing in). Otherwise unchanged.
 */
function nextStatus(
  current: MembershipRow['status'],
  wanted: MemberUpdate['status'],
): MembershipRow['status'] {
  if (wanted === 'DISABLED') return 'DISABLED'
  if (wanted === 'ACTIVE' && current === 'DISABLED') return 'INVITED'
  return current
}
