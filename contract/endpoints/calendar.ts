import {
  CalendarFeedCreateSchema,
  CalendarFeedListSchema,
  CalendarFeedSchema,
  CalendarTokenParamsSchema,
} from '../calendar.ts'
import { IdParamsSchema } from '../common.ts'
import { endpoint } from './endpoint.ts'

/** Subscribable calendars of transfer windows: the caller's feeds, and the feed itself (ICS, by its token). */
export const calendarEndpoints = {
  list: endpoint({ method: 'get', path: '/calendar-feeds', response: CalendarFeedListSchema }),
  create: endpoint({
    method: 'post',
    path: '/calendar-feeds',
    body: CalendarFeedCreateSchema,
    response: CalendarFeedSchema,
  }),
  revoke: endpoint({ method: 'delete', path: '/calendar-feeds/:id', params: IdParamsSchema }),
  /** `text/calendar`, for calendar apps: no session, the token is the credential. */
  feed: endpoint({ method: 'get', path: '/calendar/:token', params: CalendarTokenParamsSchema }),
}
