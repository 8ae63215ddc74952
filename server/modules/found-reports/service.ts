import { and, desc, eq, lt, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import {
  FOUND_REPORT_REPLIES_MAX,
  type FoundReportDetail,
  type FoundReportListQuery,
  type FoundReportSummary,
} from '../../../contract/found-reports.ts'
import type { Locale } from '../../../contract/locale.ts'
import type { Db } from '../../db/client.ts'
import { foundReportReplies, foundReports, keychains, keys, tags, users } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { cursorInstant, decodeCursor, pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../../shared/person.ts'
import { finderEmailOf, maskAddresses } from './contact.ts'

const reportNotFound = () => notFound('No such found-key report.')

/**
 * Keeps a finder's report, in the transaction that mails the organization and writes its ledger entry. The
 * keychain is the one the tag is on now; the contact stays as typed (private), its e-mail address apart.
 */
export async function storeFoundReport(
  tx: Db,
  input: {
    organizationId: string
    tagId: string
    message: string
    contact: string
    locale: Locale
    now: Date
  },
): Promise<{ id: string; canReply: boolean }> {
  const [key] = await tx.select({ keychainId: keys.keychainId }).from(keys).where(eq(keys.tagId, input.tagId))
  const finderEmail = finderEmailOf(input.contact)
  const [row] = await tx
    .insert(foundReports)
    .values({
      organizationId: input.organizationId,
      tagId: input.tagId,
      keychainId: key?.keychainId ?? null,
      message: input.message,
      finderContact: input.contact,
      finderEmail,
      locale: input.locale,
      createdAt: input.now,
      updatedAt: input.now,
    })
    .returning({ id: foundReports.id })
  return { id: row!.id, canReply: finderEmail !== null }
}

const replyCount = sql<number>`(select count(*) from ${foundReportReplies} where ${foundReportReplies.reportId} = ${foundReports.id})::int`

/** The columns every staff view reads: never the finder's contact as typed, nor their address. */
const summaryColumns = {
  id: foundReports.id,
  status: foundReports.status,
  message: foundReports.message,
  locale: foundReports.locale,
  canReply: sql<boolean>`${foundReports.finderEmail} is not null`,
  replies: replyCount,
  createdAt: foundReports.createdAt,
  updatedAt: foundReports.updatedAt,
  tagId: tags.id,
  tagCode: tags.code,
  tagName: tags.name,
  keychainId: keychains.id,
  keychainName: keychains.name,
}

type SummaryRow = {
  id: string
  status: FoundReportSummary['status']
  message: string
  locale: Locale
  canReply: boolean
  replies: number
  createdAt: Date
  updatedAt: Date
  tagId: string
  tagCode: string
  tagName: string
  keychainId: string | null
  keychainName: string | null
}

function toSummary(row: SummaryRow): FoundReportSummary {
  return {
    id: row.id,
    status: row.status,
    message: maskAddresses(row.message),
    tag: { id: row.tagId, code: row.tagCode, name: row.tagName },
    keychain: row.keychainId ? { id: row.keychainId, name: row.keychainName ?? '' } : null,
    locale: row.locale,
    canReply: row.canReply,
    replies: Number(row.replies),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** `GET /found-reports`: newest first (keyset on the time it came and its id), optionally one status. */
export async function listFoundReports(db: Db, organizationId: string, query: FoundReportListQuery) {
  const limit = pageLimit(query.limit)
  const where: Array<SQL | undefined> = [
    eq(foundReports.organizationId, organizationId),
    query.status ? eq(foundReports.status, query.status) : undefined,
  ]
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, 2)
    const after = cursorInstant(at!)
    where.push(
      or(lt(foundReports.createdAt, after), and(eq(foundReports.createdAt, after), lt(foundReports.id, id!))),
    )
  }
  const rows = await db
    .select(summaryColumns)
    .from(foundReports)
    .innerJoin(tags, eq(tags.id, foundReports.tagId))
    .leftJoin(keychains, eq(keychains.id, foundReports.keychainId))
    .where(and(...where))
    .orderBy(desc(foundReports.createdAt), desc(foundReports.id))
    .limit(limit + 1)
  return toPage(rows, limit, (row) => [row.createdAt.toISOString(), row.id], toSummary)
}

/** The report as a status change or a reply needs it (locked with `lock`): 404 outside the organization. */
export async function findReport(
  db: Db,
  organizationId: string,
  id: string,
  options: { lock?: boolean } = {},
) {
  const query = db
    .select()
    .from(foundReports)
    .where(and(eq(foundReports.id, id), eq(foundReports.organizationId, organizationId)))
  const [row] = options.lock ? await query.for('update') : await query
  if (!row) throw reportNotFound()
  return row
}

const changer = alias(users, 'status_changer')

/** `GET /found-reports/{id}`: the report, who last moved its status, the replies sent (oldest first). */
export async function getFoundReport(db: Db, organizationId: string, id: string): Promise<FoundReportDetail> {
  const [row] = await db
    .select({
      ...summaryColumns,
      contact: foundReports.finderContact,
      statusChangedAt: foundReports.statusChangedAt,
      changer,
    })
    .from(foundReports)
    .innerJoin(tags, eq(tags.id, foundReports.tagId))
    .leftJoin(keychains, eq(keychains.id, foundReports.keychainId))
    .leftJoin(changer, eq(changer.id, foundReports.statusChangedBy))
    .where(and(eq(foundReports.id, id), eq(foundReports.organizationId, organizationId)))
  if (!row) throw reportNotFound()
  const replies = await db
    .select({ reply: foundReportReplies, author: users })
    .from(foundReportReplies)
    .leftJoin(users, eq(users.id, foundReportReplies.authorId))
    .where(eq(foundReportReplies.reportId, id))
    .orderBy(foundReportReplies.createdAt, foundReportReplies.id)
  return {
    ...toSummary(row),
    contact: maskAddresses(row.contact),
    statusChangedAt: row.statusChangedAt?.toISOString() ?? null,
    statusChangedBy: row.changer ? toPerson(row.changer) : null,
    replyList: replies.map(({ reply, author }) => ({
      id: reply.id,
      message: reply.message,
      author: author ? toPerson(author) : null,
      createdAt: reply.createdAt.toISOString(),
    })),
    repliesLeft: row.canReply ? Math.max(0, FOUND_REPORT_REPLIES_MAX - replies.length) : 0,
  }
}
