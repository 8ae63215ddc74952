import { calendarEndpoints } from '../../../contract/endpoints/calendar.ts'
import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { notFound } from '../../http/errors.ts'
import { calendarDayIn } from '../../shared/time-zones.ts'
import { createFeed, feedOfToken, listFeeds, revokeFeed } from './feeds.ts'
import { renderFeed } from './ics.ts'

/** Subscribable calendars of transfer windows (ICS), behind revocable tokens. */
export function calendarRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database

  api.route(
    {
      ...calendarEndpoints.list,
      summary: "The caller's calendar feeds that still work (their addresses are shown only when made)",
      access: 'signedIn',
      responses: { 200: { description: 'The feeds' } },
    },
    async (c, { session }) => c.json({ data: await listFeeds(db, session.user.id) }, 200),
  )

  api.route(
    {
      ...calendarEndpoints.create,
      summary:
        'A new calendar feed: `personal` (the transfers addressed to me) or `organization` (all transfers of the selected organization, for its admins and managers); the answer holds its address, once',
      access: 'signedIn',
      // A feed's address is a credential that outlives any token: a signed-in person makes it.
      credentials: 'session',
      responses: {
        201: { description: 'The feed, with its `url`' },
        403: { description: 'An organization feed asked by someone who does not authorize transfers there' },
        409: { description: '`no_organization_selected` for an organization feed' },
      },
    },
    async (c, { session, body }) =>
      c.json(
        await createFeed(deps, { user: session.user, role: session.selectedRole, scope: body.scope }),
        201,
      ),
  )

  api.route(
    {
      ...calendarEndpoints.revoke,
      summary: 'Revoke one of my calendar feeds: its address answers 404 from now on',
      access: 'signedIn',
      responses: { 204: { description: 'Revoked' } },
    },
    async (c, { session, params }) => {
      await revokeFeed(deps, session.user.id, params.id)
      return c.body(null, 204)
    },
  )

  api.route(
    {
      ...calendarEndpoints.feed,
      summary:
        'The feed as ICS (`text/calendar`): an all-day event per transfer window, for calendar apps; an unknown or revoked token answers 404',
      access: 'public',
      responses: { 200: { description: 'text/calendar; charset=utf-8' } },
    },
    async (c, { params }) => {
      const found = await feedOfToken(deps, params.token.slice(0, -'.ics'.length))
      if (!found) throw notFound('No such calendar.')
      const now = deps.clock.now()
      const timeZone = 'Europe/Paris'
      const body = await renderFeed(db, {
        ...found,
        now,
        today: calendarDayIn(timeZone, now),
        publicUrl: deps.config.publicUrl,
      })
      return c.body(body, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Cache-Control': 'private, max-age=300',
      })
    },
  )
}
