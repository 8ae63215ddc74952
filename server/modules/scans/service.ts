import { randomUUID } from 'node:crypto'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { permissionsFor, type Role } from '../../../contract/permissions.ts'
import { parseScanValue } from '../../../contract/scan-value.ts'
import { SCAN_ACTIONS, type ScanResult } from '../../../contract/scans.ts'
import type { Db } from '../../db/client.ts'
import { oncePerDatabase } from '../../db/prepared.ts'
import { keychains, keys, scans, tagRetiredPublicIds, tags, users } from '../../db/schema.ts'
import type { OrganizationScope } from '../../http/access.ts'
import type { IdempotentWrite } from '../../http/idempotency.ts'
import { memberRole } from '../../http/member-role.ts'
import { toKey } from '../../shared/key-view.ts'
import { toPerson } from '../../shared/person.ts'
import { toTag } from '../../shared/tag-view.ts'
import { hasOpenTransferTo, scanTransfer } from '../transfers/scan.ts'

export type ScanInput = {
  userId: string
  scope: OrganizationScope
  value: string
  clientTime: Date | null
  fromQueue: boolean
  now: Date
  publicUrl: string
}

const custodian = alias(users, 'custodian')

/** The tag, with the key it is on, that key's keychain and the keychain's custodian: one statement each way. */
const tagStatements = oncePerDatabase((db) => {
  const select = () =>
    db
      .select({ tag: tags, key: keys, keychainName: keychains.name, custodian })
      .from(tags)
      .leftJoin(keys, eq(keys.tagId, tags.id))
      .leftJoin(keychains, eq(keychains.id, keys.keychainId))
      .leftJoin(custodian, eq(custodian.id, keychains.custodianId))
  return {
    byPublicId: select()
      .where(eq(tags.publicId, sql.placeholder('publicId')))
      .prepare('scan_tag_by_public_id'),
    byCode: select()
      .where(
        and(
          eq(tags.organizationId, sql.placeholder('organizationId')),
          eq(tags.code, sql.placeholder('code')),
        ),
      )
      .prepare('scan_tag_by_code'),
  }
})

/** The tag a scanned value names (URL, public id, code; an old QR of a reprinted tag), with its key and keychain. */
export async function findTag(db: Db, scope: Pick<OrganizationScope, 'organizationId'>, value: string) {
  const target = parseScanValue(value)
  if (target.kind === 'none') return null
  const statements = tagStatements(db)
  let [row] =
    target.kind === 'publicId'
      ? await statements.byPublicId.execute({ publicId: target.publicId })
      : await statements.byCode.execute({ organizationId: scope.organizationId, code: target.code })
  // The old QR of a tag reprinted since (a replacement of a lost tag): it is that tag, lost for good.
  let retiredPublicId: string | null = null
  if (!row && target.kind === 'publicId') {
    const [old] = await db
      .select({ tagId: tagRetiredPublicIds.tagId })
      .from(tagRetiredPublicIds)
      .where(eq(tagRetiredPublicIds.publicId, target.publicId))
    if (old) {
      const [current] = await db
        .select({ code: tags.code, organizationId: tags.organizationId })
        .from(tags)
        .where(eq(tags.id, old.tagId))
      if (current) {
        ;[row] = await statements.byCode.execute(current)
        retiredPublicId = target.publicId
      }
    }
  }
  if (!row) return null
  const { tag, key, keychainName } = row
  return {
    ...row,
    retired: retiredPublicId !== null,
    /** The public id scanned: an old QR's, for a retired one (never the reprint's). */
    publicId: retiredPublicId ?? row.tag.publicId,
    keychainId: key?.keychainId ?? null,
    link:
      // Stryker disable next-line ConditionalExpression,LogicalOperator: a key's keychain has a name (the left join types it nullable)
      key && keychainName !== null
        ? { id: key.id, name: key.name, keychainId: key.keychainId, keychainName }
        : null,
    tagRef: { id: tag.id, publicId: tag.publicId, code: tag.code, name: tag.name },
  }
}

/**
 * Inserts the scan's row when `claimed` holds: the write of `idempotentWrite`, its values those of
 * `resolveScan`. A resolved scan is an entry of its tag's organization's log (`scan.recorded`); the others (an
 * unknown value, another organization's tag) are only the scanner's. The row marks the entry pending
 * (`ledger_organization_id`), and the scan ledger's job appends it (`./ledger.ts`): the scan takes no lock of
 * the log, and its entry is written exactly once, with the scan's row.
 */
export const recordScanStatement = {
  name: 'scan_record',
  write: (claimed: SQL): SQL => {
    const value = (name: string) => sql.placeholder(name)
    return sql`insert into ${scans} (id, user_id, organization_id, value, result, tag_id, client_time, server_time,
        from_queue, ledger_organization_id, ledger_keychain_id)
      select ${value('id')}::uuid, ${value('userId')}::uuid, ${value('organizationId')}::uuid, ${value('value')}::text,
        ${value('result')}::text, ${value('tagId')}::uuid, ${value('clientTime')}::timestamptz,
        ${value('serverTime')}::timestamptz, ${value('fromQueue')}::boolean,
        ${value('ledgerOrganizationId')}::uuid, ${value('ledgerKeychainId')}::uuid
      where ${claimed} returning 1`
  },
} satisfies IdempotentWrite

/**
 * Resolves the scan and answers what the value resolves to, with the values of the row that records it
 * (`recordScanStatement`; the scan's id is made here, so that the answer stored with the key carries it).
 * `resolved` needs the tag to be in the selected organization and the role to read tags — or the caller to be
 * the recipient of an open transfer (SCHEDULED not expired, TRANSFERRED, RETURNING) of the tag's keychain, in
 * whichever of their organizations (a CONTACT picking up or holding a keychain); their permissions there give
 * the actions. Any other tag (another organization's, or one a CONTACT may not read) is `foreign`: only its
 * public landing applies. Anything else is `unknown`.
 */
export async function resolveScan(
  db: Db,
  input: ScanInput,
): Promise<{
  result: ScanResult
  values: Record<string, unknown>
  /** A lost tag, or a retired QR of one, was scanned: its admins are to be told. */
  lost: { tagId: string; retired: boolean } | null
  /** The organization whose log the scan joins (`wakeScanLedger` once written), or null. */
  ledgerOrganizationId: string | null
}> {
  const { result, tagId, logged, lost } = await answerScan(db, input, randomUUID())
  const values = {
    id: result.scanId,
    userId: input.userId,
    organizationId: input.scope.organizationId,
    value: input.value,
    result: result.status,
    tagId,
    clientTime: input.clientTime?.toISOString() ?? null,
    serverTime: input.now.toISOString(),
    fromQueue: input.fromQueue,
    ledgerOrganizationId: logged?.organizationId ?? null,
    ledgerKeychainId: logged?.keychainId ?? null,
  }
  return {
    result,
    values,
    lost: lost && tagId ? { tagId, retired: lost.retired } : null,
    ledgerOrganizationId: logged?.organizationId ?? null,
  }
}

async function answerScan(
  db: Db,
  input: ScanInput,
  scanId: string,
): Promise<{
  result: ScanResult
  tagId: string | null
  /** Where a resolved scan is logged: its tag's organization, and the keychain the tag is on. */
  logged?: { organizationId: string; keychainId: string | null }
  /** The tag found is lost, or the value is an old QR of a reprinted tag (`retired`): its admins are to be told. */
  lost?: { retired: boolean }
}> {
  const found = await findTag(db, input.scope, input.value)
  let role: Role | null = null
  if (
    found &&
    found.tag.organizationId === input.scope.organizationId &&
    input.scope.permissions.includes('read__tag')
  ) {
    role = input.scope.role
  } else if (found?.keychainId && (await hasOpenTransferTo(db, found.keychainId, input.userId, input.now))) {
    role = await memberRole(db, input.userId, found.tag.organizationId)
  }
  const permissions = role ? permissionsFor(role) : []
  if (found === null) return { result: { status: 'unknown', scanId, value: input.value }, tagId: null }
  const tagId = found.tag.id
  const lost = found.retired || found.tag.lostAt !== null ? { retired: found.retired } : undefined
  if (!role)
    return {
      result: { status: 'foreign', scanId, publicId: found.publicId },
      tagId,
      ...(lost ? { lost } : {}),
    }
  if (lost) {
    // A lost tag resolves to no keychain and offers nothing; the scan is still the organization's entry.
    return {
      result: {
        status: 'lost',
        scanId,
        tag: {
          id: tagId,
          code: found.tag.code,
          name: found.tag.name,
          lostAt: (found.tag.lostAt ?? input.now).toISOString(),
        },
      },
      tagId,
      lost,
      logged: { organizationId: found.tag.organizationId, keychainId: null },
    }
  }

  let key: Extract<ScanResult, { status: 'resolved' }>['key'] = null
  let keychain: Extract<ScanResult, { status: 'resolved' }>['keychain'] = null
  let transfer: Extract<ScanResult, { status: 'resolved' }>['transfer'] = null
  if (found.key && found.keychainId) {
    key = toKey(found.key, found.tagRef)
    // Who holds it is the organization's business: a caller who cannot read keychains sees only themselves.
    const { custodian } = found
    const shown = permissions.includes('read__keychain') || custodian?.id === input.userId ? custodian : null
    keychain = {
      id: found.keychainId,
      // Stryker disable next-line StringLiteral: a key's keychain has a name (the left join types it nullable)
      name: found.keychainName ?? '',
      custodian: shown ? toPerson(shown) : null,
    }
    transfer = await scanTransfer(db, {
      organizationId: found.tag.organizationId,
      keychainId: found.keychainId,
      userId: input.userId,
      role,
      now: input.now,
      publicUrl: input.publicUrl,
    })
  }
  return {
    result: {
      status: 'resolved',
      scanId,
      tag: toTag(found.tag, found.link, input.publicUrl),
      key,
      keychain,
      actions: SCAN_ACTIONS.filter((action) => permissions.includes(action)),
      transfer,
    },
    tagId,
    logged: { organizationId: found.tag.organizationId, keychainId: found.keychainId },
  }
}
