import { and, asc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { permissionsFor, type Role } from '../../../contract/permissions.ts'
import type { Tag } from '../../../contract/tags.ts'
import type { Pickup, Transfer } from '../../../contract/transfers.ts'
import type { Db } from '../../db/client.ts'
import {
  keychains,
  keys,
  memberships,
  type OrganizationRow,
  organizations,
  type TransferRow,
  transferPickups,
  transfers,
  type UserRow,
  users,
} from '../../db/schema.ts'
import { toPerson } from '../members/service.ts'
import { keyLinkOf, selectLinkedTags } from '../tags/list.ts'
import { toTag } from '../tags/service.ts'
import { expiresAt, isExpired, isOpen, pickupDecision, transferStatus } from './status.ts'

const recipient = alias(users, 'recipient')
const authorizer = alias(users, 'authorizer')
const recipientMembership = alias(memberships, 'recipient_membership')

/** A transfer with what its view needs, read by `selectTransfers`. */
export type TransferViewRow = {
  transfer: TransferRow
  organization: OrganizationRow
  /** The keychain's current name; null once the keychain is deleted (the transfer keeps its own copy). */
  keychainName: string | null
  recipient: UserRow
  /** The recipient's membership status in the transfer's organization (null: none). */
  recipientStatus: 'INVITED' | 'ACTIVE' | 'DISABLED' | null
  /** Whether the recipient has a membership in another organization. */
  recipientElsewhere: boolean
  authorizer: UserRow | null
}

/** Transfers with their organization, keychain name, recipient (and membership) and authorizer. */
export function selectTransfers(db: Db) {
  return db
    .select({
      transfer: transfers,
      organization: organizations,
      keychainName: keychains.name,
      recipient,
      recipientStatus: recipientMembership.status,
      recipientElsewhere:
        sql<boolean>`exists (select 1 from memberships as other where other.user_id = ${transfers.recipientId} and other.organization_id <> ${transfers.organizationId})`.mapWith(
          Boolean,
        ),
      authorizer,
    })
    .from(transfers)
    .innerJoin(organizations, eq(organizations.id, transfers.organizationId))
    .innerJoin(recipient, eq(recipient.id, transfers.recipientId))
    .leftJoin(authorizer, eq(authorizer.id, transfers.authorizedById))
    .leftJoin(keychains, eq(keychains.id, transfers.keychainId))
    .leftJoin(
      recipientMembership,
      and(
        eq(recipientMembership.userId, transfers.recipientId),
        eq(recipientMembership.organizationId, transfers.organizationId),
      ),
    )
    .$dynamic()
}

/** The recipient's membership in the transfer's organization is not DISABLED (for `selectTransfers`). */
export const recipientIsMember: SQL = sql`${recipientMembership.status} is not null and ${recipientMembership.status} <> 'DISABLED'`

export async function findTransferRow(db: Db, id: string): Promise<TransferViewRow | null> {
  const [row] = await selectTransfers(db).where(eq(transfers.id, id))
  return row ?? null
}

/** The caller's role in each of the organizations (not DISABLED). */
async function rolesOf(db: Db, userId: string, organizationIds: string[]): Promise<Map<string, Role>> {
  if (organizationIds.length === 0) return new Map()
  const rows = await db
    .select({ organizationId: memberships.organizationId, role: memberships.role })
    .from(memberships)
    .where(
      and(
        eq(memberships.userId, userId),
        inArray(memberships.organizationId, organizationIds),
        ne(memberships.status, 'DISABLED'),
      ),
    )
  return new Map(rows.map((row) => [row.organizationId, row.role]))
}

async function pickupsOf(db: Db, transferIds: string[]): Promise<Map<string, Pickup[]>> {
  const byTransfer = new Map<string, Pickup[]>()
  if (transferIds.length === 0) return byTransfer
  const rows = await db
    .select({ pickup: transferPickups, by: users })
    .from(transferPickups)
    .innerJoin(users, eq(users.id, transferPickups.byUserId))
    .where(inArray(transferPickups.transferId, transferIds))
    .orderBy(asc(transferPickups.serverTime), asc(transferPickups.kind))
  for (const { pickup, by } of rows) {
    const list = byTransfer.get(pickup.transferId) ?? []
    list.push({
      id: pickup.id,
      kind: pickup.kind,
      by: toPerson(by),
      clientTime: pickup.clientTime?.toISOString() ?? null,
      serverTime: pickup.serverTime.toISOString(),
      fromQueue: pickup.fromQueue,
    })
    byTransfer.set(pickup.transferId, list)
  }
  return byTransfer
}

/** The tags on these keychains' keys now, by code: keychain id → tags (a deleted keychain has none). */
async function tagsOf(db: Db, keychainIds: string[], publicUrl: string): Promise<Map<string, Tag[]>> {
  const byKeychain = new Map<string, Tag[]>()
  if (keychainIds.length === 0) return byKeychain
  for (const row of await selectLinkedTags(db, inArray(keys.keychainId, keychainIds))) {
    if (!row.keychainId) continue
    const list = byKeychain.get(row.keychainId) ?? []
    list.push(toTag(row.tag, keyLinkOf(row), publicUrl))
    byKeychain.set(row.keychainId, list)
  }
  return byKeychain
}

/**
 * A transfer answer stored for an Idempotency-Key before transfers carried `keychain.tags`: replayed with none
 * (the next read of the transfer gives them).
 */
export function withKeychainTags(transfer: Transfer): Transfer {
  if (Array.isArray(transfer.keychain.tags)) return transfer
  return { ...transfer, keychain: { ...transfer.keychain, tags: [] } }
}

/** The transfers that are out (TRANSFERRED, so RETURNING too) among these keychains': keychain id → ids. */
export async function outTransfersOf(db: Db, keychainIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>()
  if (keychainIds.length === 0) return out
  const rows = await db
    .select({ id: transfers.id, keychainId: transfers.keychainId })
    .from(transfers)
    .where(and(inArray(transfers.keychainId, keychainIds), eq(transfers.status, 'TRANSFERRED')))
  for (const row of rows) out.set(row.keychainId, [...(out.get(row.keychainId) ?? []), row.id])
  return out
}

/** Whether another transfer of the keychain is out. */
export const keychainOutFor = (
  out: Map<string, string[]>,
  transfer: Pick<TransferRow, 'id' | 'keychainId'>,
) => (out.get(transfer.keychainId) ?? []).some((id) => id !== transfer.id)

/**
 * The recipient as the transfer's reader sees them: names only when they are ACTIVE in the organization, its
 * own invitee, or the reader themselves (as for the member list: an invitation never reveals a stranger's name).
 */
function recipientPerson(row: TransferViewRow, callerId: string) {
  const person = toPerson(row.recipient)
  const ownInvitee =
    row.recipientStatus === 'INVITED' && row.recipient.signedInAt === null && !row.recipientElsewhere
  const named = callerId === row.recipient.id || row.recipientStatus === 'ACTIVE' || ownInvitee
  return named ? person : { ...person, firstName: '', lastName: '' }
}

/**
 * Whether the caller sees the keychain's tags: their role reads tags there, or the transfer is theirs and still
 * open (as a scan resolves them). A transfer over, or someone else's, does not reveal tags added since.
 */
function showsTags(row: TransferViewRow, caller: { userId: string; role: Role | null }, now: Date): boolean {
  if (caller.role && permissionsFor(caller.role).includes('read__tag')) return true
  const member = row.recipientStatus !== null && row.recipientStatus !== 'DISABLED'
  return row.transfer.recipientId === caller.userId && member && isOpen(row.transfer, now)
}

/**
 * The contract's view of each row for the caller at `now` (`next`/`refusal` are the caller's); `publicUrl`
 * makes the tags' URLs.
 */
export async function toTransfers(
  db: Db,
  rows: TransferViewRow[],
  callerId: string,
  now: Date,
  publicUrl: string,
  /** The caller's role in some of these organizations, already known (not read again). */
  knownRoles: ReadonlyMap<string, Role> = new Map(),
): Promise<Transfer[]> {
  if (rows.length === 0) return []
  // One query each, in turn (inside a transaction a connection runs one query at a time anyway).
  const pickups = await pickupsOf(
    db,
    rows.map((row) => row.transfer.id),
  )
  const scheduled = rows.filter((row) => row.transfer.status === 'SCHEDULED')
  const out = await outTransfersOf(db, [...new Set(scheduled.map((row) => row.transfer.keychainId))])
  const unknown = [...new Set(rows.map((row) => row.transfer.organizationId))].filter(
    (id) => !knownRoles.has(id),
  )
  const roles = new Map([...knownRoles, ...(await rolesOf(db, callerId, unknown))])
  const tags = await tagsOf(db, [...new Set(rows.map((row) => row.transfer.keychainId))], publicUrl)
  return rows.map((row) => {
    const { transfer, organization } = row
    const caller = { userId: callerId, role: roles.get(transfer.organizationId) ?? null }
    const decision = pickupDecision(transfer, caller, now, keychainOutFor(out, transfer))
    return {
      id: transfer.id,
      organizationId: transfer.organizationId,
      organizationName: organization.name,
      keychain: {
        id: transfer.keychainId,
        name: row.keychainName ?? transfer.keychainName,
        tags: showsTags(row, caller, now) ? (tags.get(transfer.keychainId) ?? []) : [],
      },
      recipient: recipientPerson(row, callerId),
      authorizedBy: row.authorizer ? toPerson(row.authorizer) : null,
      fromDate: transfer.fromDate,
      toDate: transfer.toDate,
      startsAt: transfer.startsAt.toISOString(),
      endsAt: transfer.endsAt.toISOString(),
      status: transferStatus(transfer, now),
      expired: isExpired(transfer, now),
      expiresAt: expiresAt(transfer)?.toISOString() ?? null,
      pickupAddress: {
        line1: organization.addressLine1,
        line2: organization.addressLine2,
        city: organization.city,
        postalCode: organization.postalCode,
        country: organization.country,
      },
      pickups: pickups.get(transfer.id) ?? [],
      next: decision.next,
      refusal: decision.refusal,
      createdAt: transfer.createdAt.toISOString(),
      cancelledAt: transfer.cancelledAt?.toISOString() ?? null,
    }
  })
}

export async function toTransfer(
  db: Db,
  row: TransferViewRow,
  callerId: string,
  now: Date,
  publicUrl: string,
  knownRoles?: ReadonlyMap<string, Role>,
): Promise<Transfer> {
  const [transfer] = await toTransfers(db, [row], callerId, now, publicUrl, knownRoles)
  return transfer!
}
