import * as v from 'valibot'
import { listOf } from './common.ts'

/** An organization's calendar (all its transfers) or a person's (the transfers addressed to them). */
export const CALENDAR_FEED_SCOPES = ['organization', 'personal'] as const
export type CalendarFeedScope = (typeof CALENDAR_FEED_SCOPES)[number]

/** `POST /calendar-feeds`: an organization feed is of the selected organization. */
export const CalendarFeedCreateSchema = v.strictObject({
  scope: v.picklist(CALENDAR_FEED_SCOPES, 'Scope must be organization or personal.'),
})

export const CalendarFeedSchema = v.object({
  id: v.string(),
  scope: v.picklist(CALENDAR_FEED_SCOPES),
  organizationId: v.nullable(v.string()),
  organizationName: v.nullable(v.string()),
  createdAt: v.string(),
  /**
   * The address a calendar app subscribes to, in the creation answer only: the server keeps a hash of its
   * token, so it cannot show it again (revoke the feed and make another to get a new one).
   */
  url: v.nullable(v.string()),
})
export type CalendarFeed = v.InferOutput<typeof CalendarFeedSchema>
export const CalendarFeedListSchema = listOf(CalendarFeedSchema)

export const CalendarTokenParamsSchema = v.object({
  token: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}\.ics$/, 'No such calendar.')),
})
