import * as v from 'valibot'
import { IdSchema, PageQuerySchema, pageOf } from './common.ts'
import { LOCALES } from './locale.ts'
import { PersonSchema } from './person.ts'

/**
 * A stored found-key report's status: NEW when a finder wrote, CONTACTED once the organization replied (or said
 * it did), RESOLVED when the keys are back. Any status may follow any other: staff correct a wrong click.
 */
export const FOUND_REPORT_STATUSES = ['NEW', 'CONTACTED', 'RESOLVED'] as const
export type FoundReportStatus = (typeof FOUND_REPORT_STATUSES)[number]
const FoundReportStatusSchema = v.picklist(FOUND_REPORT_STATUSES, 'Unknown status.')

/** Replies one report may get: a finder who left an address is not to be flooded. */
export const FOUND_REPORT_REPLIES_MAX = 5
export const FOUND_REPORT_REPLY_MAX_LENGTH = 2000

const TagRefSchema = v.object({ id: v.string(), code: v.string(), name: v.string() })
const KeychainRefSchema = v.object({ id: v.string(), name: v.string() })

/**
 * A report as staff see it in the list. The finder's contact never leaves the server as typed: `canReply` says
 * whether it holds an e-mail address the server can write to.
 */
const FoundReportSummarySchema = v.object({
  id: v.string(),
  status: FoundReportStatusSchema,
  message: v.string(),
  tag: TagRefSchema,
  keychain: v.nullable(KeychainRefSchema),
  /** The language the finder wrote in: replies are mailed in it. */
  locale: v.picklist(LOCALES),
  canReply: v.boolean(),
  replies: v.number(),
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type FoundReportSummary = v.InferOutput<typeof FoundReportSummarySchema>
export const FoundReportPageSchema = pageOf(FoundReportSummarySchema)

const FoundReportReplyEntrySchema = v.object({
  id: v.string(),
  message: v.string(),
  author: v.nullable(PersonSchema),
  createdAt: v.string(),
})

/** `GET /found-reports/{id}`: the report, who last changed its status, the replies sent. */
export const FoundReportDetailSchema = v.object({
  ...FoundReportSummarySchema.entries,
  /**
   * What the finder left to be reached with every e-mail address masked as `…@…` (a phone number stays):
   * replies by e-mail go through the server, which alone keeps the address.
   */
  contact: v.string(),
  statusChangedAt: v.nullable(v.string()),
  statusChangedBy: v.nullable(PersonSchema),
  replyList: v.array(FoundReportReplyEntrySchema),
  repliesLeft: v.number(),
})
export type FoundReportDetail = v.InferOutput<typeof FoundReportDetailSchema>

/** `GET /found-reports`: newest first, optionally one status. */
export const FoundReportListQuerySchema = v.object({
  ...PageQuerySchema.entries,
  status: v.optional(FoundReportStatusSchema),
})
export type FoundReportListQuery = v.InferOutput<typeof FoundReportListQuerySchema>

export const FoundReportParamsSchema = v.object({ id: IdSchema })

/** `PATCH /found-reports/{id}`. */
export const FoundReportStatusChangeSchema = v.strictObject({ status: FoundReportStatusSchema })

/** `POST /found-reports/{id}/replies`: mailed to the finder; the report becomes CONTACTED if it was NEW. */
export const FoundReportReplySchema = v.strictObject({
  message: v.pipe(
    v.string('Message is required.'),
    v.trim(),
    v.nonEmpty('Message is required.'),
    v.maxLength(FOUND_REPORT_REPLY_MAX_LENGTH, 'Message is too long.'),
    v.check((text) => text.isWellFormed() && !text.includes('\u0000'), 'Message holds invalid characters.'),
  ),
})
