import { eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Invitation, Member } from '../../../contract/organizations.ts'
import { type UserRow, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { mailJob } from '../../jobs/mail.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { invitationMail } from '../../mail/invitation-mail.ts'
import { findOrganization } from '../../shared/organization.ts'
import { displayName } from '../../shared/person.ts'
import { appendEvent } from '../events/append.ts'
import { addMembership, findMembership, toMember } from './service.ts'

type Deps = Pick<AppDeps, 'database' | 'clock' | 'jobs' | 'config' | 'logger'>

/**
 * Invites an address into the organization as INVITED with the given role, creating the account when the
 * address is unknown (in the invitation's language), and mails the invitee in their account's language. The
 * membership becomes ACTIVE at their next sign-in. Already a member (any status): 409. The answer shows an
 * existing account by its e-mail only (see `toMember`): the invitation's names apply to a new account alone.
 */
export async function inviteMember(
  deps: Deps,
  input: { organizationId: string; inviter: UserRow; invitation: Invitation },
): Promise<Member> {
  const { invitation } = input
  const now = deps.clock.now()
  const organization = await findOrganization(deps.database.db, input.organizationId)
  if (!organization) throw notFound('No such organization.')
  const invitee = await deps.database.db.transaction(async (tx) => {
    await tx
      .insert(users)
      .values({
        email: invitation.email,
        firstName: invitation.firstName ?? '',
        lastName: invitation.lastName ?? '',
        locale: invitation.locale ?? 'fr',
        createdAt: now,
        lastSeenAt: now,
      })
      .onConflictDoNothing({ target: users.email })
    const [user] = await tx.select().from(users).where(eq(users.email, invitation.email))
    if (!user) throw new Error('invited user vanished')
    const added = await addMembership(tx, {
      userId: user.id,
      organizationId: input.organizationId,
      role: invitation.role,
      status: 'INVITED',
      now,
    })
    if (!added) {
      throw new ApiError(409, ErrorCode.conflict, 'This person is already a member of the organization.')
    }
    await enqueueJobs(tx, [
      mailJob(
        invitationMail({
          to: user.email,
          locale: user.locale,
          publicUrl: deps.config.publicUrl,
          organizationName: organization.name,
          inviterName: displayName(input.inviter),
          role: invitation.role,
        }),
        { now, organizationId: input.organizationId },
      ),
    ])
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'member.invited',
      actorId: input.inviter.id,
      serverTime: now,
      payload: { memberId: user.id, role: invitation.role },
    })
    return user
  })
  // The membership and its mail commit together; the mail is retried while the SMTP server refuses it.
  deps.jobs.nudge()
  const row = await findMembership(deps.database.db, input.organizationId, invitee.id)
  if (!row) throw new Error('invited membership vanished')
  return toMember(row)
}
