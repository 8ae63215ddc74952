import type { Acceptance } from '../../contract/receipts.ts'
import type { ScanResult } from '../../contract/scans.ts'
import type { Transfer } from '../../contract/transfers.ts'
import { ApiError } from '../lib/api.ts'
import type { OutboxItem } from './db.ts'
import { withDb } from './db.ts'
import { mirrorTransfers } from './mirror.ts'
import { enqueue, inFlight, type SendOutcome, settle } from './outbox.ts'
import { resolveScanOffline } from './scan-offline.ts'
import { sendItem } from './transport.ts'

/** Past this, the first try gives up and the action waits in the outbox (a weak signal is no signal). */
const IMMEDIATE_TIMEOUT_MS = 8000

/** The browser reports no network at all: a request could only fail, and the person would wait for it. */
const noNetwork = () => typeof navigator !== 'undefined' && navigator.onLine === false

/**
 * The first, immediate try of a new action (claimed by `enqueue`: the worker leaves it alone meanwhile). With
 * no network at all no request is made: the action waits for the worker, which sends it once it is back.
 */
export async function sendOnce(item: OutboxItem): Promise<SendOutcome> {
  if (noNetwork()) {
    inFlight.delete(item.id)
    return { kind: 'unreachable' }
  }
  try {
    const outcome = await sendItem(item, false, AbortSignal.timeout(IMMEDIATE_TIMEOUT_MS))
    await settle(item, outcome)
    return outcome
  } finally {
    inFlight.delete(item.id)
  }
}

/** The caller's side of a field action: who, where, with what rights. */
export type FieldContext = { userId: string; organizationId: string; permissions: readonly string[] }

/** The server's answer to a field action tried at once, or none while the action waits in the outbox. */
type KeptThenSent<T> = { item: OutboxItem } & ({ result: T; queued: false } | { result: null; queued: true })

/**
 * A field action made online: kept in the outbox first (it survives a reload or a crash), then tried once at
 * once. The server's "no" is thrown and nothing is kept; without an answer the worker sends it later.
 */
export async function keepThenSend<T>(
  action: Omit<Parameters<typeof enqueue>[0], 'claim'>,
): Promise<KeptThenSent<T>> {
  const item = await enqueue({ ...action, claim: true })
  const outcome = await sendOnce(item)
  if (outcome.kind === 'sent') return { item, result: outcome.result as T, queued: false }
  if (outcome.kind === 'refused') {
    await withDb((db) => db.outbox.delete(item.id))
    // The server's "no" to an action made online is shown at once, so nothing is kept.
    throw new ApiError(outcome.status, outcome.code, outcome.message)
  }
  return { item, result: null, queued: true }
}

/**
 * Records a scan: first in the outbox (it survives a reload or a crash), then sent. Without an answer it stays
 * queued and resolves from the mirror, so the same result screen shows offline.
 */
export async function submitScan(
  context: FieldContext,
  value: string,
): Promise<{ result: ScanResult; queued: boolean }> {
  if (noNetwork()) {
    // Kept and answered from the mirror side by side: the answer shows once the scan is kept.
    const id = crypto.randomUUID()
    const [, result] = await Promise.all([
      enqueue({ kind: 'scan', ...context, value, label: value, id }),
      resolveScanOffline({ ...context, value, scanId: id }),
    ])
    return { result, queued: true }
  }
  const sent = await keepThenSend<ScanResult>({ kind: 'scan', ...context, value, label: value })
  if (!sent.queued) {
    const { result } = sent
    if (result.status === 'resolved' && result.transfer)
      await mirrorTransfers([result.transfer], context.userId)
    return { result, queued: false }
  }
  const result = await resolveScanOffline({ ...context, value, scanId: sent.item.id })
  return { result, queued: true }
}

/** What a pickup the rules allow looks like until the server confirms it (offline). */
function provisional(transfer: Transfer, userId: string): Transfer {
  if (transfer.next === 'RETURN')
    return { ...transfer, status: 'RETURNED', next: null, refusal: 'already_returned' }
  const overdue = transfer.status === 'RETURNING'
  return {
    ...transfer,
    status: overdue ? 'RETURNING' : 'TRANSFERRED',
    next: null,
    refusal: transfer.recipient.id === userId ? 'own_return' : 'not_member',
  }
}

/**
 * A field action on a transfer, kept in the outbox, then sent: the server's answer is mirrored and returned;
 * its "no" is thrown (nothing kept); without an answer, `whileQueued` says how the transfer looks meanwhile.
 */
async function submitTransferAction(
  context: FieldContext,
  transfer: Transfer,
  action: { kind: 'pickup'; acceptance?: Acceptance } | { kind: 'extension'; toDate: string },
  whileQueued: (item: OutboxItem) => Transfer,
): Promise<{ transfer: Transfer; queued: boolean }> {
  const sent = await keepThenSend<Transfer>({
    ...action,
    ...context,
    organizationId: transfer.organizationId,
    value: transfer.id,
    label: transfer.keychain.name,
  })
  if (!sent.queued) {
    await mirrorTransfers([sent.result], context.userId)
    return { transfer: sent.result, queued: false }
  }
  const waiting = whileQueued(sent.item)
  await mirrorTransfers([waiting], context.userId)
  return { transfer: waiting, queued: true }
}

/**
 * Confirms the pickup or return `transfer.next` offers; a first pickup carries the recipient's acceptance,
 * queued and replayed with it (one outbox item, one Idempotency-Key). Without an answer it is accepted provisionally
 * ("waiting to sync") and the mirror shows the move.
 */
export function submitPickup(context: FieldContext, transfer: Transfer, acceptance?: Acceptance) {
  const action = acceptance ? { kind: 'pickup' as const, acceptance } : { kind: 'pickup' as const }
  return submitTransferAction(context, transfer, action, () => provisional(transfer, context.userId))
}

/**
 * The holder asks for a later to-date. Without an answer the request shows as pending ("waiting to sync") on
 * this device until the worker delivers it.
 */
export function submitExtension(context: FieldContext, transfer: Transfer, toDate: string) {
  return submitTransferAction(context, transfer, { kind: 'extension', toDate }, (item) => ({
    ...transfer,
    extension: {
      id: item.id,
      status: 'PENDING',
      toDate,
      previousToDate: transfer.toDate,
      requestedAt: item.clientTime,
      decidedAt: null,
    },
  }))
}
