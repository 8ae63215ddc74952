import { reportEndpoints } from '../../../contract/endpoints/reports.ts'
import type { AppDeps } from '../../deps.ts'
import { inSelectedOrganization } from '../../http/access.ts'
import type { ApiRouter } from '../../http/api-router.ts'
import { toPerson } from '../../shared/person.ts'
import { listLeavers } from '../members/leavers.ts'
import { timeZoneOf } from '../subscriptions/service.ts'
import { csvHeaders } from './csv.ts'
import { holdingsCsv, listHoldings, listOpenTransfers } from './holdings.ts'
import { monthlyActivity, monthlyCsv } from './monthly.ts'
import { listOverdue, overdueCsv } from './overdue.ts'
import { listUnseen, unseenCsv } from './unseen.ts'

// The reports read the ledger's people and keys: the same readers as the activity log (ADMIN, MANAGER).
const access = inSelectedOrganization('read__activity')
const SOMEONE_ELSE = { 404: { description: 'The person is not a member of the selected organization' } }
const CSV = { 200: { description: 'text/csv; charset=utf-8, as an attachment' } }

/** The organization's reports, each as JSON pages and as a streamed CSV. */
export function reportRoutes(api: ApiRouter, deps: AppDeps): void {
  const { db } = deps.database
  const zoned = async <Q>(organizationId: string, query: Q) => ({
    organizationId,
    timeZone: await timeZoneOf(db, organizationId),
    now: deps.clock.now(),
    query,
  })
  const holder = (organizationId: string, personId: string) => ({
    organizationId,
    personId,
    now: deps.clock.now(),
  })

  api.route(
    {
      ...reportEndpoints.holdings,
      summary: 'Who holds what: the keychains a member holds now, by name, with their keys (for a departure)',
      access,
      responses: { 200: { description: 'The member and a page of their keychains' }, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.json(await listHoldings(db, holder(organization.organizationId, query.person), query), 200),
  )

  api.route(
    {
      ...reportEndpoints.leavers,
      summary:
        'Who left with keys: members disabled while they still hold keychains or have transfers open, most keychains first, until everything is back',
      access,
      responses: { 200: { description: 'The leavers, each with what they still have' } },
    },
    async (c, { organization }) => {
      const rows = await listLeavers(db, organization.organizationId, deps.clock.now())
      const data = rows.map((row) => ({
        person: toPerson(row.user),
        keychains: row.keychains,
        transfers: row.transfers,
      }))
      return c.json({ data }, 200)
    },
  )

  api.route(
    {
      ...reportEndpoints.holdingTransfers,
      summary:
        'The transfers addressed to a member that are still open (scheduled, out, late), soonest first',
      access,
      responses: { 200: { description: 'A page of transfers' }, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.json(await listOpenTransfers(db, holder(organization.organizationId, query.person), query), 200),
  )

  api.route(
    {
      ...reportEndpoints.holdingsExport,
      summary: 'The departure report as CSV: one record per key held, then one per open transfer',
      access,
      responses: { ...CSV, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.body(
        await holdingsCsv(db, holder(organization.organizationId, query.person)),
        200,
        csvHeaders('holdings'),
      ),
  )

  api.route(
    {
      ...reportEndpoints.overdue,
      summary: 'Transfers picked up and not returned a day after their to-date, most overdue first',
      access,
      responses: { 200: { description: 'A page of overdue transfers' }, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.json(await listOverdue(db, await zoned(organization.organizationId, query)), 200),
  )

  api.route(
    {
      ...reportEndpoints.overdueExport,
      summary: 'The overdue transfers as CSV, streamed (the whole view: `limit` and `cursor` are ignored)',
      access,
      responses: { ...CSV, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.body(
        await overdueCsv(db, await zoned(organization.organizationId, query)),
        200,
        csvHeaders('overdue-transfers'),
      ),
  )

  api.route(
    {
      ...reportEndpoints.unseen,
      summary:
        'Keychains none of whose tags a member scanned in the last `days` days (default 30), never scanned first',
      access,
      responses: { 200: { description: 'A page of keychains' }, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.json(await listUnseen(db, await zoned(organization.organizationId, query)), 200),
  )

  api.route(
    {
      ...reportEndpoints.unseenExport,
      summary: 'The keychains not seen as CSV, streamed (the whole view: `limit` and `cursor` are ignored)',
      access,
      responses: { ...CSV, ...SOMEONE_ELSE },
    },
    async (c, { organization, query }) =>
      c.body(
        await unseenCsv(db, await zoned(organization.organizationId, query)),
        200,
        csvHeaders('keychains-not-seen'),
      ),
  )

  api.route(
    {
      ...reportEndpoints.monthly,
      summary:
        "Activity per calendar month of the organization's zone: ledger entries by kind and scans (default: the last 12)",
      access,
      responses: { 200: { description: 'One row per month, empty months included' } },
    },
    async (c, { organization, query }) =>
      c.json(await monthlyActivity(db, await zoned(organization.organizationId, query)), 200),
  )

  api.route(
    {
      ...reportEndpoints.monthlyExport,
      summary: 'The activity per month as CSV',
      access,
      responses: CSV,
    },
    async (c, { organization, query }) =>
      c.body(
        await monthlyCsv(db, await zoned(organization.organizationId, query)),
        200,
        csvHeaders('activity-by-month'),
      ),
  )
}
