import { and, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { permissionsFor, type Role } from '../../contract/permissions.ts'
import type { Tag } from '../../contract/tags.ts'
import {
  expiresAt,
  isExpired,
  isOpen,
  pickupDecision,
  transferStatus,
} from '../../contract/transfer-state.ts'
import type { Pickup, Transfer, TransferExtension } from '../../contract/transfers.ts'
import type { Db } from '../db/client.ts'
import {
  keychains,
  memberships,
  type OrganizationRow,
  organizations,
  type TransferRow,
  transfers,
  type UserRow,
  users,
} from '../db/schema.ts'
import { addressOf } from './organization.ts'
import { toPerson } from './person.ts'
import { type TagFields, toTag } from './tag-view.ts'

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
  /** The transfer's pickups in order, with who made each (JSON from the same statement). */
  pickups: PickupJson[]
  /** The keychain's transfers that are out now (TRANSFERRED, so RETURNING too). */
  outIds: string[]
  /** The tags on the keychain's keys now, by code (none once the keychain is deleted). */
  tags: TagJson[]
  extension: ExtensionJson | null
}

type PickupJson = {
  id: string
  kind: Pickup['kind']
  clientTime: string | null
  serverTime: string
  fromQueue: boolean
  by: { id: string; email: string; firstName: string; lastName: string }
}

type TagJson = Omit<TagFields, 'createdAt'> & {
  createdAt: string
  keyId: string
  keyName: string
  keychainId: string
  keychainName: string
}

/*
 * What a transfer's view needs besides its row, as correlated subqueries of the same statement (one round trip
 * for a scan, a detail or a page of a list, where a query each cost three more): they read only the rows of the
 * transfer (`transfer_pickups` by its unique (transfer, kind)) and of its keychain (`transfers_keychain_window_idx`,
 * `keys_keychain_idx`).
 */
const pickupsJson = sql<PickupJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', p.id, 'kind', p.kind, 'clientTime', p.client_time, 'serverTime', p.server_time,
    'fromQueue', p.from_queue,
    'by', json_build_object('id', u.id, 'email', u.email, 'firstName', u.first_name, 'lastName', u.last_name)
  ) order by p.server_time, p.kind)
  from transfer_pickups p join users u on u.id = p.by_user_id
  where p.transfer_id = ${transfers.id}
), '[]'::json)`

const outIdsJson = sql<string[]>`coalesce((
  select json_agg(o.id) from transfers o where o.keychain_id = ${transfers.keychainId} and o.status = 'TRANSFERRED'
), '[]'::json)`

const tagsJson = sql<TagJson[]>`coalesce((
  select json_agg(json_build_object(
    'id', tg.id, 'publicId', tg.public_id, 'code', tg.code, 'name', tg.name,
    'foregroundColor', tg.foreground_color, 'backgroundColor', tg.background_color, 'createdAt', tg.created_at,
    'keyId', k.id, 'keyName', k.name, 'keychainId', kc.id, 'keychainName', kc.name
  ) order by tg.code)
  from keys k join tags tg on tg.id = k.tag_id join keychains kc on kc.id = k.keychain_id
  where k.keychain_id = ${transfers.keychainId}
), '[]'::json)`

type ExtensionJson = {
  id: string
  status: TransferExtension['status']
  toDate: string
  previousToDate: string
  requestedAt: string
  decidedAt: string | null
}

/** The transfer's latest request for more time (`transfer_extensions_transfer_idx`), or null. */
const extensionJson = sql<ExtensionJson | null>`(
  select json_build_object(
    'id', e.id, 'status', e.status, 'toDate', e.to_date, 'previousToDate', e.previous_to_date,
    'requestedAt', e.requested_at, 'decidedAt', e.decided_at
  )
  from transfer_extensions e where e.transfer_id = ${transfers.id}
  order by e.requested_at desc, e.id desc limit 1
)`

/**
 * Transfers with their organization, keychain name, recipient (and membership) and authorizer. A deleted
 * keychain (soft: its row stays) is read nowhere, so the transfer shows its own copy of the name.
 */
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
      pickups: pickupsJson,
      outIds: outIdsJson,
      tags: tagsJson,
      extension: extensionJson,
    })
    .from(transfers)
    .innerJoin(organizations, eq(organizations.id, transfers.organizationId))
    .innerJoin(recipient, eq(recipient.id, transfers.recipientId))
    .leftJoin(authorizer, eq(authorizer.id, transfers.authorizedById))
    .leftJoin(keychains, and(eq(keychains.id, transfers.keychainId), isNull(keychains.deletedAt)))
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

/** Times re-read as for pickups; dates come back as `YYYY-MM-DD` from `json_build_object`. */
function toExtension(extension: ExtensionJson): TransferExtension {
  return {
    ...extension,
    requestedAt: new Date(extension.requestedAt).toISOString(),
    decidedAt: extension.decidedAt === null ? null : new Date(extension.decidedAt).toISOString(),
  }
}

/** A pickup as the contract shows it, from its JSON (times are re-read: PostgreSQL writes its own offset). */
function toPickup(pickup: PickupJson): Pickup {
  return {
    id: pickup.id,
    kind: pickup.kind,
    by: toPerson(pickup.by),
    clientTime: pickup.clientTime === null ? null : new Date(pickup.clientTime).toISOString(),
    serverTime: new Date(pickup.serverTime).toISOString(),
    fromQueue: pickup.fromQueue,
  }
}

function toKeychainTag(tag: TagJson, publicUrl: string): Tag {
  const { keyId, keyName, keychainId, keychainName, createdAt, ...row } = tag
  return {
    ...toTag({ ...row, createdAt: new Date(createdAt) }, null, publicUrl),
    key: { id: keyId, name: keyName, keychainId, keychainName },
  }
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
  const unknown = [...new Set(rows.map((row) => row.transfer.organizationId))].filter(
    (id) => !knownRoles.has(id),
  )
  const roles = new Map([...knownRoles, ...(await rolesOf(db, callerId, unknown))])
  return rows.map((row) => {
    const { transfer, organization } = row
    const caller = { userId: callerId, role: roles.get(transfer.organizationId) ?? null }
    const othersOut = row.outIds.some((id) => id !== transfer.id)
    const decision = pickupDecision(transfer, caller, now, othersOut)
    return {
      id: transfer.id,
      organizationId: transfer.organizationId,
      organizationName: organization.name,
      keychain: {
        id: transfer.keychainId,
        name: row.keychainName ?? transfer.keychainName,
        tags: showsTags(row, caller, now) ? row.tags.map((tag) => toKeychainTag(tag, publicUrl)) : [],
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
      pickupAddress: addressOf(organization),
      pickups: row.pickups.map(toPickup),
      next: decision.next,
      refusal: decision.refusal,
      createdAt: transfer.createdAt.toISOString(),
      cancelledAt: transfer.cancelledAt?.toISOString() ?? null,
      chasedAt: transfer.chasedAt?.toISOString() ?? null,
      extension: row.extension ? toExtension(row.extension) : null,
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
