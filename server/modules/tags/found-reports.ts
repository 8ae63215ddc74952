import { and, eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { FoundReport } from '../../../contract/tags.ts'
import { memberships, organizations, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { ipBucket } from '../../http/ip-bucket.ts'
import { hitRateLimit, type RateLimitPolicy } from '../../http/rate-limit.ts'
import { foundReportMail } from '../../mail/found-report-mail.ts'
import { findTagByPublicId } from './service.ts'

const HOUR = 60 * 60 * 1000
/** A finder writes once or twice; a script writing to every tag id it guesses meets these first. */
export const FOUND_REPORTS_PER_IP: RateLimitPolicy = { limit: 5, windowMs: HOUR }
export const FOUND_REPORTS_PER_TAG: RateLimitPolicy = { limit: 10, windowMs: 24 * HOUR }

type Deps = Pick<AppDeps, 'database' | 'clock' | 'mailer' | 'config' | 'logger'>

const rateLimited = (retryAfterS: number) =>
  new ApiError(429, ErrorCode.rateLimited, 'Too many messages. Please try again later.', {
    headers: { 'Retry-After': String(retryAfterS) },
  })

/** Mails the finder's message to every ACTIVE ADMIN of the organization owning the tag, each in their language. */
export async function reportFoundTag(
  deps: Deps,
  input: { publicId: string; report: FoundReport; ip: string },
): Promise<void> {
  const { db } = deps.database
  const now = deps.clock.now()
  const perIp = await hitRateLimit(db, `found-report:ip:${ipBucket(input.ip)}`, FOUND_REPORTS_PER_IP, now)
  if (perIp.limited) throw rateLimited(perIp.retryAfterS)
  const tag = await findTagByPublicId(db, input.publicId)
  if (!tag) throw notFound('No such tag.')
  const perTag = await hitRateLimit(db, `found-report:tag:${tag.id}`, FOUND_REPORTS_PER_TAG, now)
  if (perTag.limited) throw rateLimited(perTag.retryAfterS)

  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, tag.organizationId))
  const admins = await db
    .select({ email: users.email, locale: users.locale })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(
      and(
        eq(memberships.organizationId, tag.organizationId),
        eq(memberships.role, 'ADMIN'),
        eq(memberships.status, 'ACTIVE'),
      ),
    )
  for (const admin of admins) {
    const mail = foundReportMail({
      to: admin.email,
      locale: admin.locale,
      publicUrl: deps.config.publicUrl,
      organizationName: organization?.name ?? '',
      tag,
      message: input.report.message,
      contact: input.report.contact,
    })
    await deps.mailer.send(mail).catch((error: unknown) => {
      deps.logger.error({ err: error, tagId: tag.id }, 'found-report mail failed')
    })
  }
}
