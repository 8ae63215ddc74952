import { and, count, eq, gte, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm'
import { DASHBOARD_CHART_WEEKS, type DashboardCharts } from '../../../contract/dashboard.ts'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { keychains, organizationCounters, organizations, transfers } from '../../db/schema.ts'
import { calendarDayIn, startOfDayIn } from '../../shared/time-zones.ts'
import { expiredWhere, openWhere } from '../../shared/transfer-conditions.ts'

const filtered = (where: SQL) => sql<number>`count(*) filter (where ${where})`.mapWith(Number)

/**
 * Keychains by status without reading the organization's keychains (deleted ones aside, as the counter leaves
 * them out): the total kept by triggers, the held ones
 * through the (organization, custodian) index (nulls sort last: only the held ones are read), and the keychains
 * of open transfers (each once, by its most advanced transfer) joined by id. Also the organization's time zone.
 */
async function keychainsByStatus(db: Db, organizationId: string, now: Date) {
  const active = db
    .select({
      keychainId: transfers.keychainId,
      late: sql<boolean>`bool_or(${and(eq(transfers.status, 'TRANSFERRED'), expiredWhere(true, now))})`.as(
        'late',
      ),
      out: sql<boolean>`bool_or(${eq(transfers.status, 'TRANSFERRED')})`.as('out'),
    })
    .from(transfers)
    .where(and(eq(transfers.organizationId, organizationId), openWhere(now)))
    .groupBy(transfers.keychainId)
    .as('active')
  const [row] = await db
    .select({
      total: sql<number>`coalesce((select ${organizationCounters.keychains} from ${organizationCounters}
        where ${organizationCounters.organizationId} = ${organizationId}), 0)`.mapWith(Number),
      held: sql<number>`(select count(*) from ${keychains}
        where ${and(
          eq(keychains.organizationId, organizationId),
          isNotNull(keychains.custodianId),
          isNull(keychains.deletedAt),
        )})`.mapWith(Number),
      timeZone: sql<string>`(select ${organizations.timeZone} from ${organizations}
        where ${organizations.id} = ${organizationId})`,
      late: filtered(sql`${active.late}`),
      out: filtered(sql`${active.out} and not ${active.late}`),
      scheduled: filtered(sql`not ${active.out}`),
      activeHeld: filtered(isNotNull(keychains.custodianId)),
    })
    .from(active)
    .innerJoin(keychains, and(eq(keychains.id, active.keychainId), isNull(keychains.deletedAt)))
  const figures = row!
  const held = Math.max(0, figures.held - figures.activeHeld)
  const busy = figures.late + figures.out + figures.scheduled
  return {
    timeZone: figures.timeZone,
    byStatus: {
      noHolder: Math.max(0, figures.total - busy - held),
      held,
      scheduled: figures.scheduled,
      out: figures.out,
      late: figures.late,
    },
  }
}

/** The Monday of each of the last `DASHBOARD_CHART_WEEKS` weeks in the time zone, and the Monday after them. */
export function weekStarts(timeZone: string, now: Date): string[] {
  const today = calendarDayIn(timeZone, now)
  const sinceMonday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7
  const monday = shiftCalendarDay(today, -sinceMonday)
  return Array.from({ length: DASHBOARD_CHART_WEEKS + 1 }, (_, index) =>
    shiftCalendarDay(monday, 7 * (index - DASHBOARD_CHART_WEEKS + 1)),
  )
}

/**
 * Transfers authorized each week, as the allowance counts them (`transfersUsedThisMonth`: those cancelled
 * before their window closed are given back), in one pass over the 12 weeks of the (organization, created_at)
 * index.
 */
async function transfersPerWeek(db: Db, organizationId: string, timeZone: string, now: Date) {
  const days = weekStarts(timeZone, now)
  const bounds = days.map((day) => startOfDayIn(timeZone, day))
  const columns = Object.fromEntries(
    days
      .slice(0, -1)
      .map((_, index) => [
        `week${index}`,
        filtered(and(gte(transfers.createdAt, bounds[index]!), lt(transfers.createdAt, bounds[index + 1]!))!),
      ]),
  )
  const [row] = await db
    .select({ total: count(), ...columns })
    .from(transfers)
    .where(
      and(
        eq(transfers.organizationId, organizationId),
        gte(transfers.createdAt, bounds[0]!),
        lt(transfers.createdAt, bounds.at(-1)!),
        or(ne(transfers.status, 'CANCELLED'), gte(transfers.cancelledAt, transfers.endsAt)),
      ),
    )
  const counts = row as Record<string, number> | undefined
  return days.slice(0, -1).map((week, index) => ({ week, count: counts?.[`week${index}`] ?? 0 }))
}

/** `GET /stats/dashboard/charts`: the selected organization's keychains by status and transfers per week. */
export async function dashboardCharts(db: Db, organizationId: string, now: Date): Promise<DashboardCharts> {
  const { timeZone, byStatus } = await keychainsByStatus(db, organizationId, now)
  return {
    keychainsByStatus: byStatus,
    transfersPerWeek: await transfersPerWeek(db, organizationId, timeZone, now),
  }
}
