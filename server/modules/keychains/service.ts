import { eq } from 'drizzle-orm'
import { ErrorCode } from '../../../contract/errors.ts'
import type { Keychain, KeychainCreate, KeychainUpdate } from '../../../contract/keychains.ts'
import type { Db } from '../../db/client.ts'
import { type KeychainRow, keychains } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { ApiError, notFound } from '../../http/errors.ts'
import { OFF_THE_HOOK } from '../../shared/places.ts'
import { hasTransferOut } from '../../shared/transfer-conditions.ts'
import { appendEvent } from '../events/append.ts'
import { isCustodianCandidate } from '../members/service.ts'
import { appendCustody } from './custody.ts'
import { keychainDeletionGuards } from './deletion-guards.ts'
import { keychainDetail } from './detail.ts'
import { findKeychain } from './find.ts'
import { addKeyIn, refusingTakenTag } from './keys.ts'
import { softDeleteKeychainsIn } from './soft-delete.ts'

type Deps = Pick<AppDeps, 'database' | 'clock'>
type Tx = Db

export { findKeychain }

/** The keychain as the API shows it (two statements: see `keychainDetails`). */
async function toKeychain(db: Db, row: KeychainRow): Promise<Keychain> {
  return keychainDetail(db, row.organizationId, row.id)
}

async function assertCustodian(db: Db, organizationId: string, custodianId: string): Promise<void> {
  if (await isCustodianCandidate(db, organizationId, custodianId)) return
  const message = 'The custodian must be a member of the organization.'
  throw new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'custodianId', message }] })
}

type CreateInput = { organizationId: string; actorId: string; keychain: KeychainCreate }

/**
 * Creates the keychain inside the caller's transaction (`tx`), with its first key when one is given: the
 * keychain and its tag commit together or not at all (a tag taken meanwhile refuses the whole, 409).
 */
export async function createKeychainIn(tx: Tx, input: CreateInput & { now: Date }): Promise<Keychain> {
  const { now } = input
  const custodianId = input.keychain.custodianId ?? null
  if (custodianId) await assertCustodian(tx, input.organizationId, custodianId)
  const [row] = await tx
    .insert(keychains)
    .values({
      organizationId: input.organizationId,
      name: input.keychain.name,
      custodianId,
      createdAt: now,
      updatedAt: now,
    })
    .returning()
  if (!row) throw new Error('keychain insert returned no row')
  if (custodianId) {
    await appendCustody(tx, {
      keychainId: row.id,
      byUserId: input.actorId,
      fromUserId: null,
      toUserId: custodianId,
      reason: '',
      at: now,
    })
  }
  await appendEvent(tx, {
    organizationId: input.organizationId,
    kind: 'keychain.created',
    actorId: input.actorId,
    serverTime: now,
    keychainIds: [row.id],
    payload: { name: row.name, custodianId },
  })
  const { firstKey } = input.keychain
  if (firstKey) {
    await addKeyIn(tx, {
      organizationId: input.organizationId,
      keychainId: row.id,
      key: firstKey,
      actorId: input.actorId,
      now,
    })
  }
  return toKeychain(tx, row)
}

export async function createKeychain(deps: Deps, input: CreateInput): Promise<Keychain> {
  const now = deps.clock.now()
  return refusingTakenTag(() =>
    deps.database.db.transaction((tx: Tx) => createKeychainIn(tx, { ...input, now })),
  )
}
/** Renames and/or hands over; a change of custodian appends to the custody log with the reason given. */
export async function updateKeychain(
  deps: Deps,
  input: { organizationId: string; actorId: string; id: string; update: KeychainUpdate },
): Promise<Keychain> {
  const now = deps.clock.now()
  const { update } = input
  return deps.database.db.transaction(async (tx: Tx) => {
    // Locked: two hand-overs at once log A→B then B→C, never A→B and A→C.
    const current = await findKeychain(tx, input.organizationId, input.id, { lock: true })
    const custodianChanges = update.custodianId !== undefined && update.custodianId !== current.custodianId
    if (custodianChanges && update.custodianId)
      await assertCustodian(tx, input.organizationId, update.custodianId)
    if (custodianChanges && (await hasTransferOut(tx, current.id))) {
      throw new ApiError(
        409,
        ErrorCode.conflict,
        'This keychain is out on a transfer: its custodian changes when it is returned.',
      )
    }
    const [row] = await tx
      .update(keychains)
      .set({
        ...(update.name !== undefined ? { name: update.name } : {}),
        ...(custodianChanges ? { custodianId: update.custodianId ?? null } : {}),
        // Taken by someone: off its hook.
        ...(custodianChanges && update.custodianId ? OFF_THE_HOOK : {}),
        updatedAt: now,
      })
      .where(eq(keychains.id, current.id))
      .returning()
    if (!row) throw notFound('No such keychain.')
    if (custodianChanges) {
      await appendCustody(tx, {
        keychainId: row.id,
        byUserId: input.actorId,
        fromUserId: current.custodianId,
        toUserId: update.custodianId ?? null,
        reason: update.reason ?? '',
        at: now,
      })
    }
    const keychain = await toKeychain(tx, row)
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'keychain.updated',
      actorId: input.actorId,
      serverTime: now,
      keychainIds: [row.id],
      payload: {
        ...(update.name !== undefined && update.name !== current.name
          ? { name: { from: current.name, to: row.name } }
          : {}),
        ...(custodianChanges
          ? { custodian: { from: current.custodianId, to: row.custodianId }, reason: update.reason ?? '' }
          : {}),
      },
    })
    return keychain
  })
}

/**
 * Soft-deletes the keychain unless a deletion guard objects: it leaves lists, search and the mirror, its tags
 * become free meanwhile, and `restoreKeychain` brings it back with its keys and tags (see `soft-delete.ts`).
 */
export async function deleteKeychain(
  deps: Deps,
  input: { organizationId: string; id: string; actorId?: string | null },
): Promise<void> {
  await deps.database.db.transaction(async (tx: Tx) => {
    const current = await findKeychain(tx, input.organizationId, input.id, { lock: true })
    for (const guard of keychainDeletionGuards) {
      const refusal = await guard(tx, current.id, deps.clock.now())
      if (refusal) throw new ApiError(409, ErrorCode.conflict, refusal)
    }
    const now = deps.clock.now()
    const freed = await softDeleteKeychainsIn(tx, {
      organizationId: input.organizationId,
      ids: [current.id],
      actorId: input.actorId ?? null,
      now,
    })
    // Its tags become free: the mirror must hear about them too.
    await appendEvent(tx, {
      organizationId: input.organizationId,
      kind: 'keychain.deleted',
      actorId: input.actorId ?? null,
      serverTime: now,
      keychainIds: [current.id],
      tagIds: freed.get(current.id) ?? [],
      payload: { name: current.name },
    })
  })
}
