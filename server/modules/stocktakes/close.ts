import { and, eq, gt, sql } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { StocktakeSummary } from '../../../contract/stocktakes.ts'
import {
  keychains,
  organizations,
  places,
  stocktakeDevices,
  stocktakeItems,
  stocktakes,
  users,
} from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, forbidden } from '../../http/errors.ts'
import { enqueueJobs } from '../../jobs/queue.ts'
import { displayName, toPerson } from '../../shared/person.ts'
import { appendEvent } from '../events/append.ts'
import { nextDueOn } from '../places/service.ts'
import { missingNoticeJob } from './notices.ts'
import { reachesStocktakeRole } from './scan.ts'
import { stocktakeCounts, stocktakeNotFound, stocktakeSummary } from './view.ts'

type Rows = { rows: Array<Record<string, unknown>> }

/**
 * `POST /stocktakes/{id}/close`: refused (409 `stocktake_scans_unsent`) while a device says it made scans the
 * server has not had; otherwise, in one transaction and a handful of set-based statements whatever its size,
 * the keychains not seen become MISSING, the stocktake CLOSED, the keychains seen remember the hook they were
 * seen on, a recurring place's next stocktake falls due a period later, the admins are told what is missing
 * (a job) and the result joins the organization's log (`stocktake.closed`: activity, webhooks, hash chain).
 */
export async function closeStocktake(
  deps: Pick<AppDeps, 'database' | 'clock' | 'jobs'>,
  input: { organizationId: string; actorId: string; id: string },
): Promise<StocktakeSummary> {
  const { db } = deps.database
  const now = deps.clock.now()
  await db.transaction(async (tx) => {
    const [stocktake] = await tx
      .select({
        status: stocktakes.status,
        placeId: stocktakes.placeId,
        timeZone: organizations.timeZone,
      })
      .from(stocktakes)
      .innerJoin(organizations, eq(organizations.id, stocktakes.organizationId))
      .where(and(eq(stocktakes.id, input.id), eq(stocktakes.organizationId, input.organizationId)))
      // Stryker disable next-line ObjectLiteral: which rows the lock takes only matters to concurrent closes
      .for('update', { of: stocktakes })
    if (!stocktake) throw stocktakeNotFound()
    if (stocktake.status !== 'OPEN') {
      throw new ApiError(409, ErrorCode.conflict, 'This stocktake is closed already.')
    }
    const unsent = await tx
      .select({
        device: stocktakeDevices,
        user: { id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName },
      })
      .from(stocktakeDevices)
      .leftJoin(users, eq(users.id, stocktakeDevices.userId))
      .where(
        and(eq(stocktakeDevices.stocktakeId, input.id), gt(stocktakeDevices.made, stocktakeDevices.received)),
      )
      .orderBy(stocktakeDevices.deviceId)
    if (unsent.length > 0) {
      const names = unsent.map(({ device, user }) => {
        const who = user?.id ? displayName(user) : device.deviceId
        return `${who} (${device.made - device.received})`
      })
      throw new ApiError(
        409,
        ErrorCode.stocktakeScansUnsent,
        `Scans are still on their way from: ${names.join(', ')}. Let these devices send them first.`,
        {
          fields: {
            unsent: unsent.map(({ device, user }) => ({
              deviceId: device.deviceId,
              person: user?.id ? toPerson(user) : null,
              made: device.made,
              received: device.received,
            })),
          },
        },
      )
    }
    const missing = (await tx.execute(sql`
      update ${stocktakeItems} set state = 'MISSING'
      where ${stocktakeItems.stocktakeId} = ${input.id} and ${stocktakeItems.state} = 'PENDING'
      returning keychain_id::text as id`)) as unknown as Rows
    const misplaced = await tx
      .select({ id: stocktakeItems.keychainId })
      .from(stocktakeItems)
      .where(and(eq(stocktakeItems.stocktakeId, input.id), eq(stocktakeItems.state, 'MISPLACED')))
    await tx
      .update(stocktakes)
      .set({ status: 'CLOSED', closedAt: now, closedById: input.actorId })
      .where(eq(stocktakes.id, input.id))
    // Where each keychain seen was seen, unless someone took it since.
    await tx.execute(sql`
      update ${keychains} set hook_id = item.found_hook_id, hook_seen_at = item.found_at,
        hook_seen_by_id = item.found_by_id
      from ${stocktakeItems} item
      where item.stocktake_id = ${input.id} and item.keychain_id = ${keychains.id}
        and item.found_hook_id is not null and ${keychains.custodianId} is null`)
    // Stryker disable next-line ConditionalExpression: with no place, the update below matches no row
    if (stocktake.placeId) {
      await tx
        .update(places)
        .set({
          stocktakeDueOn: sql`case ${places.stocktakeEvery} when 'MONTHLY' then ${nextDueOn(stocktake.timeZone, now, 'MONTHLY')}::date
            else ${nextDueOn(stocktake.timeZone, now, 'QUARTERLY')}::date end`,
          updatedAt: now,
        })
        .where(and(eq(places.id, stocktake.placeId), sql`${places.stocktakeEvery} is not null`))
    }
    const counts = await stocktakeCounts(tx, input.id)
    const missingIds = missing.rows.map((row) => String(row.id))
    const misplacedIds = misplaced.map((row) => row.id)
    if (counts.missing > 0) {
      await enqueueJobs(tx, [missingNoticeJob(input.id, input.organizationId, now)])
    }
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'stocktake.closed',
      actorId: input.actorId,
      serverTime: now,
      keychainIds: [...missingIds, ...misplacedIds],
      payload: {
        stocktakeId: input.id,
        placeId: stocktake.placeId,
        counts,
        missing: missingIds,
        misplaced: misplacedIds,
      },
    })
  })
  deps.jobs.nudge()
  return stocktakeSummary(db, input.organizationId, input.id)
}

/**
 * `PUT /stocktakes/{id}/devices/{deviceId}`: how many scans the device has made for the stocktake; never
 * lowers what it said before (a late or replayed report changes nothing).
 */
export async function reportDevice(
  deps: Pick<AppDeps, 'database' | 'clock'>,
  input: { organizationId: string; role: Role; userId: string; id: string; deviceId: string; made: number },
) {
  const { db } = deps.database
  const [stocktake] = await db
    .select({ stocktakeRole: organizations.stocktakeRole })
    .from(stocktakes)
    .innerJoin(organizations, eq(organizations.id, stocktakes.organizationId))
    .where(and(eq(stocktakes.id, input.id), eq(stocktakes.organizationId, input.organizationId)))
  if (!stocktake) throw stocktakeNotFound()
  if (!reachesStocktakeRole(input.role, stocktake.stocktakeRole)) throw forbidden()
  const now = deps.clock.now()
  const [device] = await db
    .insert(stocktakeDevices)
    .values({
      stocktakeId: input.id,
      deviceId: input.deviceId,
      userId: input.userId,
      made: input.made,
      received: 0,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [stocktakeDevices.stocktakeId, stocktakeDevices.deviceId],
      set: { made: sql`greatest(${stocktakeDevices.made}, excluded.made)`, updatedAt: now },
    })
    .returning()
  const [user] = await db
    .select({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, device!.userId ?? input.userId))
  return {
    deviceId: device!.deviceId,
    person: user ? toPerson(user) : null,
    made: device!.made,
    received: device!.received,
  }
}
