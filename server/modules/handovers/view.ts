import { and, desc, eq, lt, or, type SQL } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Handover } from '../../../contract/handover.ts'
import type { Role } from '../../../contract/permissions.ts'
import type { Db } from '../../db/client.ts'
import { type HandoverRow, handovers, keychains, users } from '../../db/schema.ts'
import { notFound } from '../../http/errors.ts'
import { cursorInstant, decodeCursor, pageLimit, toPage } from '../../http/pagination.ts'
import { toPerson } from '../../shared/person.ts'

const giver = alias(users, 'giver')
const receiver = alias(users, 'receiver')
const sender = alias(users, 'sender')

/** Who reads a handover: managers and admins every one of the organization, anyone else those they took part in. */
export type HandoverReader = { userId: string; role: Role }
const readsAll = (reader: HandoverReader) => reader.role === 'ADMIN' || reader.role === 'MANAGER'

function visibleTo(organizationId: string, reader: HandoverReader): SQL {
  return and(
    eq(handovers.organizationId, organizationId),
    readsAll(reader)
      ? undefined
      : or(eq(handovers.giverId, reader.userId), eq(handovers.receiverId, reader.userId)),
  )!
}

function selectHandovers(db: Db) {
  return (
    db
      .select({
        handover: handovers,
        // The keychain's name now (the one it had, once it is deleted).
        keychainName: keychains.name,
        giver: { id: giver.id, email: giver.email, firstName: giver.firstName, lastName: giver.lastName },
        receiver: {
          id: receiver.id,
          email: receiver.email,
          firstName: receiver.firstName,
          lastName: receiver.lastName,
        },
        sender: {
          id: sender.id,
          email: sender.email,
          firstName: sender.firstName,
          lastName: sender.lastName,
        },
      })
      .from(handovers)
      // Of its organization only: an offer may name another organization's keychain (refused, `keychain_gone`).
      .leftJoin(
        keychains,
        and(eq(keychains.id, handovers.keychainId), eq(keychains.organizationId, handovers.organizationId)),
      )
      .leftJoin(giver, eq(giver.id, handovers.giverId))
      .leftJoin(receiver, eq(receiver.id, handovers.receiverId))
      .leftJoin(sender, eq(sender.id, handovers.sentById))
  )
}

type HandoverJoin = Awaited<ReturnType<ReturnType<typeof selectHandovers>['where']>>[number]

function toHandover(row: HandoverJoin): Handover {
  const { handover } = row
  return {
    id: handover.id,
    status: handover.status,
    reason: handover.reason,
    keychain: { id: handover.keychainId, name: row.keychainName ?? handover.keychainName },
    giver: row.giver ? toPerson(row.giver) : null,
    receiver: row.receiver ? toPerson(row.receiver) : null,
    giverDeviceId: handover.giverDeviceId,
    receiverDeviceId: handover.receiverDeviceId,
    offeredAt: handover.offeredAt.toISOString(),
    acceptedAt: handover.acceptedAt.toISOString(),
    receivedAt: handover.receivedAt.toISOString(),
    sentBy: row.sender ? toPerson(row.sender) : null,
  }
}

/** The handover with this id in the organization (whoever reads it), or undefined. */
export async function findHandover(
  db: Db,
  organizationId: string,
  id: string,
): Promise<Handover | undefined> {
  const [row] = await selectHandovers(db).where(
    and(eq(handovers.organizationId, organizationId), eq(handovers.id, id)),
  )
  return row ? toHandover(row) : undefined
}

/** `GET /handovers/{id}`: a handover the reader may see; any other is a 404. */
export async function readHandover(
  db: Db,
  organizationId: string,
  reader: HandoverReader,
  id: string,
): Promise<Handover> {
  const [row] = await selectHandovers(db).where(and(visibleTo(organizationId, reader), eq(handovers.id, id)))
  if (!row) throw notFound('No such handover.')
  return toHandover(row)
}

/** The stored row of an APPLIED handover the reader may see (a receipt's), else a 404. */
export async function appliedHandoverRow(
  db: Db,
  organizationId: string,
  reader: HandoverReader,
  id: string,
): Promise<HandoverRow> {
  const [row] = await selectHandovers(db).where(
    and(visibleTo(organizationId, reader), eq(handovers.id, id), eq(handovers.status, 'APPLIED')),
  )
  if (!row) throw notFound('No applied handover with this id.')
  return row.handover
}

/** `GET /handovers`: newest first (as the server received them), by `status`, a page at a time. */
export async function listHandovers(
  db: Db,
  organizationId: string,
  reader: HandoverReader,
  query: { cursor?: string | undefined; status?: Handover['status'] | undefined },
) {
  const limit = pageLimit(undefined)
  const where: Array<SQL | undefined> = [
    visibleTo(organizationId, reader),
    query.status ? eq(handovers.status, query.status) : undefined,
  ]
  if (query.cursor) {
    const [at, id] = decodeCursor(query.cursor, 2)
    const after = cursorInstant(at!)
    where.push(
      or(lt(handovers.receivedAt, after), and(eq(handovers.receivedAt, after), lt(handovers.id, id!))),
    )
  }
  const rows = await selectHandovers(db)
    .where(and(...where))
    .orderBy(desc(handovers.receivedAt), desc(handovers.id))
    .limit(limit + 1)
  return toPage(rows, limit, (row) => [row.handover.receivedAt.toISOString(), row.handover.id], toHandover)
}
