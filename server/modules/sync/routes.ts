import { syncEndpoints } from '../../../contract/endpoints/sync.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { readFeed } from './feed.ts'

/** The field mirror's change feed: what a device must know to work offline, as pages of changes since a cursor. */
export function syncRoutes(api: ApiRouter, deps: AppDeps): void {
  api.route(
    {
      ...syncEndpoints.changes,
      summary:
        'The selected organization’s keychains, tags and transfers as the caller’s role reads them: a snapshot in pages, then the changes since a cursor',
      // Every role reads transfers (a CONTACT those addressed to them): the feed is filtered by role inside.
      access: inSelectedOrganization('read__transfer'),
      responses: { 200: { description: 'A page of the feed' } },
    },
    async (c, { organization, session, query }) => {
      c.header('Cache-Control', 'no-store')
      return c.json(
        await readFeed(deps.database.db, {
          caller: { userId: session.user.id, ...organization },
          cursor: query.cursor,
          limit: query.limit,
          now: deps.clock.now(),
          publicUrl: deps.config.publicUrl,
        }),
        200,
      )
    },
  )
}
