import { randomUUID } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import { expect } from 'vitest'
import { STORED_TRANSFER_STATUSES } from '../../contract/transfer-state.ts'
import type { Transfer, TransferStatus } from '../../contract/transfers.ts'
import { keys, organizationEvents, subscriptions, transfers } from '../../server/db/schema.ts'
import { PLAN_IDS } from '../../server/modules/plans/catalog.ts'
import { calendarDayIn, startOfDayIn } from '../../server/shared/time-zones.ts'
import { DAY } from './clock.ts'
import { makeKeychain, makeTags, organizationWithAdmin, signedInMember } from './fixtures.ts'
import type { TestApp } from './harness.ts'

/**
 * A subscription to Essentiel inserted directly, with the allowance asked for, made at the start of its period:
 * by default from now for a year.
 */
export async function subscribe(
  t: TestApp,
  organizationId: string,
  transfersPerMonth = 10,
  period?: { start: Date; end: Date },
) {
  const start = period?.start ?? t.clock.now()
  const end = period?.end ?? new Date(start.getTime() + 365 * DAY)
  await t.db
    .insert(subscriptions)
    .values({
      organizationId,
      planId: PLAN_IDS.essentielMonthly,
      planName: 'Essentiel',
      billingCycle: 'MONTHLY',
      transfersPerMonth,
      currentPeriodStart: start,
      currentPeriodEnd: end,
      createdAt: start,
      updatedAt: start,
    })
    .onConflictDoUpdate({
      target: subscriptions.organizationId,
      set: { transfersPerMonth, currentPeriodStart: start, currentPeriodEnd: end },
    })
}

/** The organization's transfer events, oldest first (its tags and keychains were made before). */
export const transferEvents = async (t: TestApp, organizationId: string) =>
  (
    await t.db
      .select({
        kind: organizationEvents.kind,
        actorId: organizationEvents.actorId,
        clientTime: organizationEvents.clientTime,
        serverTime: organizationEvents.serverTime,
        fromQueue: organizationEvents.fromQueue,
        keychainIds: organizationEvents.keychainIds,
        transferIds: organizationEvents.transferIds,
        payload: organizationEvents.payload,
      })
      .from(organizationEvents)
      .where(eq(organizationEvents.organizationId, organizationId))
      .orderBy(asc(organizationEvents.seq))
  ).filter((event) => event.kind.startsWith('transfer.'))

/** `YYYY-MM-DD` `days` after today in Paris (the test clock's today). */
export function parisDay(t: TestApp, days = 0): string {
  return calendarDayIn('Europe/Paris', new Date(t.clock.now().getTime() + days * DAY))
}

/**
 * A transfer inserted directly (no subscription, allowance or mail), by default SCHEDULED from today to
 * tomorrow in Paris, so its window is open now.
 */
export async function makeTransfer(
  t: TestApp,
  input: {
    organizationId: string
    keychainId: string
    recipientId: string
    fromDate?: string
    toDate?: string
    status?: Exclude<TransferStatus, 'RETURNING'>
    previousCustodianId?: string | null
  },
) {
  const fromDate = input.fromDate ?? parisDay(t)
  const toDate = input.toDate ?? parisDay(t, 1)
  const status = input.status ?? 'SCHEDULED'
  if (!STORED_TRANSFER_STATUSES.includes(status)) throw new Error(`not a stored status: ${status}`)
  const [row] = await t.db
    .insert(transfers)
    .values({
      organizationId: input.organizationId,
      keychainId: input.keychainId,
      keychainName: 'Keychain',
      recipientId: input.recipientId,
      fromDate,
      toDate,
      startsAt: startOfDayIn('Europe/Paris', fromDate),
      endsAt: startOfDayIn('Europe/Paris', toDate),
      status,
      previousCustodianId: input.previousCustodianId ?? null,
      createdAt: t.clock.now(),
      cancelledAt: status === 'CANCELLED' ? t.clock.now() : null,
    })
    .returning()
  return row!
}

/**
 * An organization ("Agence", Paris) on a plan, with a signed-in ADMIN, MEMBER and CONTACT, and a keychain
 * "Cave" held by the MEMBER with one TAG key.
 */
export async function transferWorld(t: TestApp, options: { allowance?: number; name?: string } = {}) {
  const { organization, admin } = await organizationWithAdmin(t, options.name ?? 'Agence')
  await subscribe(t, organization.id, options.allowance ?? 10)
  const member = await signedInMember(t, organization.id, 'MEMBER')
  const contact = await signedInMember(t, organization.id, 'CONTACT')
  const [tag] = await makeTags(t, organization.id, 1, 'TRF')
  const keychain = await makeKeychain(t, organization.id, 'Cave', member.id)
  await addTagKey(t, keychain.id, tag!.id, 'Porte')
  return { organization, admin, member, contact, tag: tag!, keychain }
}

/** A TAG key on the keychain, inserted directly. */
export async function addTagKey(t: TestApp, keychainId: string, tagId: string, name = 'Key') {
  await t.db.insert(keys).values({ keychainId, name, type: 'TAG', tagId, createdAt: t.clock.now() })
}

export const authorize = (t: TestApp, cookie: string, keychainId: string, json: unknown) =>
  t.post(`/api/keychains/${keychainId}/transfers`, { cookie, json })

/** `POST /api/transfers/{id}/pickups` with a fresh (or the given) Idempotency-Key. */
export const pickup = (
  t: TestApp,
  cookie: string,
  transferId: string,
  key: string = randomUUID(),
  headers: Record<string, string> = {},
) =>
  t.post(`/api/transfers/${transferId}/pickups`, { cookie, headers: { 'idempotency-key': key, ...headers } })

/** A `POST /keychains/{id}/transfers` body: the recipient, by default from the test epoch's day for two days. */
export const dates = (recipient: unknown, fromDate = '2030-01-15', toDate = '2030-01-17') => ({
  recipient,
  fromDate,
  toDate,
})

export const toMember = (userId: string) => ({ kind: 'member', userId })

/** The world, and a transfer of its keychain (held by the MEMBER) to its CONTACT, by default today and tomorrow. */
export async function scheduledTransfer(t: TestApp, options: { fromDate?: string; toDate?: string } = {}) {
  const world = await transferWorld(t)
  const transfer = await makeTransfer(t, {
    organizationId: world.organization.id,
    keychainId: world.keychain.id,
    recipientId: world.contact.id,
    ...options,
  })
  return { ...world, transfer }
}

/** Expects a 409 `pickup_refused` and gives its error (`reason`, `message`). */
export async function pickupRefusal(response: Response) {
  expect(response.status).toBe(409)
  const { error } = await response.json()
  expect(error.code).toBe('pickup_refused')
  return error as { reason: string; message: string }
}

/** Every transfer of a list (`path` with its query), page by page of `limit`. */
export async function allTransfers(t: TestApp, path: string, cookie: string, limit = 2): Promise<Transfer[]> {
  const items: Transfer[] = []
  let cursor: string | null = null
  do {
    const separator = path.includes('?') ? '&' : '?'
    const url = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const response = await t.get(url, { cookie })
    expect(response.status, url).toBe(200)
    const page = (await response.json()) as { data: Transfer[]; nextCursor: string | null }
    items.push(...page.data)
    cursor = page.nextCursor
  } while (cursor)
  return items
}
