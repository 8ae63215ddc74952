import { and, asc, eq, isNotNull, lte, type SQL } from 'drizzle-orm'
import { shiftCalendarDay } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import { organizations, places } from '../../db/schema.ts'
import { calendarDayIn } from '../../shared/time-zones.ts'

/** A recurring stocktake not done a week after its day is overdue. */
export const OVERDUE_AFTER_DAYS = 7

/** Where a place's recurring stocktake stands on `today`: not due yet, due, or overdue. */
export function dueStage(dueOn: string, today: string): 'not_due' | 'due' | 'overdue' {
  if (today < dueOn) return 'not_due'
  return today >= shiftCalendarDay(dueOn, OVERDUE_AFTER_DAYS) ? 'overdue' : 'due'
}

/** Places with a recurring stocktake and a due day, with their organization's name and time zone. */
export function placesWithDueDays(db: Db, filter?: SQL) {
  return db
    .select({
      id: places.id,
      name: places.name,
      kind: places.kind,
      organizationId: places.organizationId,
      dueOn: places.stocktakeDueOn,
      organizationName: organizations.name,
      timeZone: organizations.timeZone,
    })
    .from(places)
    .innerJoin(organizations, eq(organizations.id, places.organizationId))
    .where(and(isNotNull(places.stocktakeEvery), isNotNull(places.stocktakeDueOn), filter))
    .orderBy(asc(places.stocktakeDueOn), asc(places.name), asc(places.id))
}

/** `GET /stocktakes/due`: the organization's places whose recurring stocktake is due or overdue today. */
export async function listDue(db: Db, organizationId: string, now: Date) {
  const [organization] = await db
    .select({ timeZone: organizations.timeZone })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
  const today = calendarDayIn(organization?.timeZone ?? 'Europe/Paris', now)
  const rows = await placesWithDueDays(
    db,
    and(eq(places.organizationId, organizationId), lte(places.stocktakeDueOn, today)),
  )
  return {
    data: rows.map((row) => ({
      place: { id: row.id, name: row.name, kind: row.kind },
      dueOn: row.dueOn!,
      overdue: dueStage(row.dueOn!, today) === 'overdue',
    })),
  }
}
