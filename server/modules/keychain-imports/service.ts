import { randomUUID } from 'node:crypto'
import { ErrorCode } from '../../../contract/errors.ts'
import type { ImportPreview, ImportResult } from '../../../contract/keychain-import.ts'
import type { Db } from '../../db/client.ts'
import { isUniqueViolation } from '../../db/errors.ts'
import { custodyLog, keychains, keys } from '../../db/schema.ts'
import { ApiError } from '../../http/errors.ts'
import { appendEvent } from '../events/append.ts'
import { checkImport, previewOf } from './check.ts'
import { type ParsedCsv, parseKeychainCsv } from './csv.ts'

/** Rows per insert statement: a few thousand parameters each, well under PostgreSQL's 65,535. */
const INSERT_CHUNK = 1000
/** Row errors named in a refused commit's `issues`. */
const ISSUES_SHOWN = 100

export async function previewImport(db: Db, organizationId: string, csv: string): Promise<ImportPreview> {
  const parsed = await parseKeychainCsv(csv)
  return previewOf(parsed, await checkImport(db, organizationId, parsed))
}

function chunks<T>(items: T[], size = INSERT_CHUNK): T[][] {
  const out: T[][] = []
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size))
  return out
}

/**
 * Checks the file again inside the caller's transaction and, if no row is wrong, creates every keychain, its
 * custody entry and its keys with multi-row inserts (`INSERT_CHUNK` rows a statement; the keychains' key counts
 * and tag codes follow from the keys' statement triggers), then appends one `keychains.imported` entry naming
 * every keychain and tag. Any error leaves nothing written (the transaction is the caller's). A row error is a
 * 400 `import_rows_invalid`; a tag attached by someone else since the check is a 409.
 */
export async function commitImport(
  tx: Db,
  /** `file` as `parseKeychainCsv` read it, before the transaction: reading takes turns of the event loop. */
  input: { organizationId: string; actorId: string; file: ParsedCsv; now: Date },
): Promise<ImportResult> {
  const plan = await checkImport(tx, input.organizationId, input.file)
  if (plan.errors.length > 0) {
    const first = plan.errors[0]!
    throw new ApiError(
      400,
      ErrorCode.importRowsInvalid,
      `The file has ${plan.errors.length} row error(s); line ${first.line}: ${first.message}`,
      {
        issues: plan.errors.slice(0, ISSUES_SHOWN).map((error) => ({
          path: `${error.line}:${error.column ?? ''}`,
          message: error.message,
        })),
      },
    )
  }
  const { now, organizationId } = input
  const made = plan.keychains.map((keychain) => ({
    id: randomUUID(),
    organizationId,
    name: keychain.name,
    custodianId: keychain.custodianEmail ? plan.custodianIds.get(keychain.custodianEmail)! : null,
    homeHookId: keychain.home ? plan.homeIds.get(keychain.home)! : null,
    createdAt: now,
    updatedAt: now,
  }))
  const keyRows = plan.keychains.flatMap((keychain, index) =>
    keychain.keys.map((key) => ({
      keychainId: made[index]!.id,
      name: key.name,
      type: key.type,
      tagId: key.tagCode ? plan.tagIds.get(key.tagCode)! : null,
      createdAt: now,
    })),
  )
  const custody = made.flatMap((keychain) =>
    keychain.custodianId
      ? [
          {
            keychainId: keychain.id,
            byUserId: input.actorId,
            fromUserId: null,
            toUserId: keychain.custodianId,
            at: now,
            reason: '',
          },
        ]
      : [],
  )
  try {
    for (const chunk of chunks(made)) await tx.insert(keychains).values(chunk)
    for (const chunk of chunks(custody)) await tx.insert(custodyLog).values(chunk)
    for (const chunk of chunks(keyRows)) await tx.insert(keys).values(chunk)
  } catch (error) {
    if (isUniqueViolation(error, 'keys_tag_id_unique'))
      throw new ApiError(
        409,
        ErrorCode.conflict,
        'A tag of the file was put on a key meanwhile: check the file again.',
      )
    throw error
  }
  const tagIds = keyRows.flatMap((key) => (key.tagId ? [key.tagId] : []))
  const result = { keychains: made.length, keys: keyRows.length, tags: tagIds.length }
  await appendEvent(tx, {
    organizationId,
    kind: 'keychains.imported',
    actorId: input.actorId,
    serverTime: now,
    keychainIds: made.map((keychain) => keychain.id),
    tagIds,
    payload: {
      ...result,
      custodians: custody.length,
      homes: made.filter((keychain) => keychain.homeHookId).length,
    },
  })
  return result
}
