import { createFileRoute, useNavigate } from '@tanstack/react-router'
import * as v from 'valibot'
import { EVENT_KINDS } from '../../../../contract/events.ts'
import { CalendarDateSchema } from '../../../../contract/transfers.ts'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import { ActivityScreen } from '../../../features/activity/ActivityScreen.tsx'

/**
 * An unknown filter value in a shared link is dropped rather than failing the page. The kinds are checked by
 * the page, not here: what the route declares loads with every page of the app.
 */
const SearchSchema = v.object({
  q: v.optional(v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(100)), undefined as never)),
  kind: v.optional(v.fallback(v.string(), undefined as never)),
  person: v.optional(v.fallback(v.pipe(v.string(), v.uuid()), undefined as never)),
  keychain: v.optional(v.fallback(v.pipe(v.string(), v.uuid()), undefined as never)),
  tag: v.optional(v.fallback(v.pipe(v.string(), v.uuid()), undefined as never)),
  from: v.optional(v.fallback(CalendarDateSchema, undefined as never)),
  to: v.optional(v.fallback(CalendarDateSchema, undefined as never)),
})

export const Route = createFileRoute('/{-$locale}/app/activity')({
  validateSearch: SearchSchema,
  component: Activity,
})

function Activity() {
  const search = Route.useSearch()
  const filter = {
    q: search.q,
    kind: EVENT_KINDS.find((kind) => kind === search.kind),
    person: search.person,
    keychain: search.keychain,
    tag: search.tag,
    from: search.from,
    to: search.to,
  }
  const navigate = useNavigate({ from: Route.fullPath })
  return (
    <RequireOrganization>
      {(organizationId) => (
        <ActivityScreen
          key={`${organizationId}:${Object.values(filter).join(':')}`}
          organizationId={organizationId}
          filter={filter}
          onFilterChange={(next) => void navigate({ search: next, replace: true })}
        />
      )}
    </RequireOrganization>
  )
}
