import type { Acceptance } from '../../contract/receipts.ts'
import { type OutboxItem, type OutboxKind, withDb } from './db.ts'

/** Backoff after a failed attempt: 2 s, 4 s, 8 s… capped at 5 minutes. */
export const BACKOFF_BASE_MS = 2000
export const BACKOFF_CAP_MS = 5 * 60 * 1000

export function backoffDelay(attempts: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1))
}

/**
 * After this many server errors (5xx answers) in a row, an item is kept as failed with the last one's reason,
 * and the items after it go on: one action the server keeps failing on must not hold back all the others.
 * Only answers count: no answer at all (network, timeout) never makes an item failed.
 */
export const SERVER_ERROR_LIMIT = 5

/**
 * What sending one item gave: the server's answer; a refusal that waiting will not change (4xx: the transfer
 * was cancelled, say); a server error (5xx), retried later up to `SERVER_ERROR_LIMIT` times in a row; or no
 * answer (no network, a timeout, "not now"), retried later for as long as it takes.
 */
export type SendOutcome =
  | { kind: 'sent'; result: NonNullable<OutboxItem['result']> }
  | { kind: 'refused'; status: number; code: string; message: string; reason?: string }
  | { kind: 'serverError'; status: number; code: string; message: string }
  | { kind: 'unreachable' }

/** An outbox item with its run of server errors (a field Dexie stores without an index). */
type CountedItem = OutboxItem & { serverErrors?: number }

/** How many server errors in a row `item` has had since it was made or last put back in line. */
export function serverErrorsOf(item: OutboxItem): number {
  return (item as CountedItem).serverErrors ?? 0
}

export type Transport = (item: OutboxItem) => Promise<SendOutcome>

let lastSeq = 0

/** Items this tab is sending right now (the immediate try of a new action): a drain leaves them alone. */
export const inFlight = new Set<string>()

/**
 * Keeps a field action on the device before anything is sent. The item (its UUID above all) is made once,
 * before the write: when the connection is lost and `withDb` tries again, a write that did commit is found
 * by that id instead of being added a second time under a new key.
 */
export async function enqueue(input: {
  kind: OutboxKind
  userId: string
  organizationId: string
  value: string
  label: string
  /** Extension: the to-date asked for. */
  toDate?: string
  /** First pickup: the recipient's acceptance. */
  acceptance?: Acceptance
  /** Pairing: see `OutboxItem`. */
  pairing?: Pick<OutboxItem, 'name' | 'keyName' | 'keychainId' | 'tagPublicId'>
  /** Hook scan: see `OutboxItem`. */
  hook?: Pick<OutboxItem, 'keychainId' | 'makeHome'>
  /** Handover: see `OutboxItem`. */
  handover?: Pick<OutboxItem, 'keychainId' | 'handover'>
  /**
   * Stocktake scan: see `OutboxItem`. Its `deviceSeq` is taken from the meta counter `counter` in the same
   * write as the item, so the device's count of its scans never skips nor repeats a number.
   */
  stocktake?: Pick<OutboxItem, 'stocktakeId' | 'hookId' | 'deviceId'> & { counter: string }
  now?: Date
  /** The caller sends it at once: claimed before the write, so no drain picks it up meanwhile. */
  claim?: boolean
  /** Made by the caller when it needs the id before the write ends. */
  id?: string
}): Promise<OutboxItem> {
  const now = input.now ?? new Date()
  const made: Omit<OutboxItem, 'seq'> = {
    id: input.id ?? crypto.randomUUID(),
    kind: input.kind,
    userId: input.userId,
    organizationId: input.organizationId,
    value: input.value,
    ...(input.toDate ? { toDate: input.toDate } : {}),
    ...(input.acceptance ? { acceptance: input.acceptance } : {}),
    ...input.pairing,
    ...input.hook,
    ...input.handover,
    ...(input.stocktake
      ? {
          stocktakeId: input.stocktake.stocktakeId,
          hookId: input.stocktake.hookId,
          deviceId: input.stocktake.deviceId,
        }
      : {}),
    label: input.label,
    clientTime: now.toISOString(),
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    error: null,
    result: null,
    sentAt: null,
  }
  if (input.claim) inFlight.add(made.id)
  let retry = false
  const counter = input.stocktake?.counter
  return withDb((db) =>
    db.transaction('rw', db.outbox, db.meta, async () => {
      // A first try that committed before the connection dropped (only a retry can find one).
      const kept = retry ? await db.outbox.get(made.id) : undefined
      retry = true
      if (kept) return kept
      const last = await db.outbox.orderBy('seq').last()
      // Strictly increasing even for two actions in the same millisecond, and across reloads.
      const seq = Math.max(now.getTime(), (last?.seq ?? 0) + 1, lastSeq + 1)
      lastSeq = seq
      const item: OutboxItem = { ...made, seq }
      if (counter) {
        item.deviceSeq = Number((await db.meta.get(counter))?.value ?? 0) + 1
        await db.meta.put({ key: counter, value: String(item.deviceSeq) })
      }
      await db.outbox.add(item)
      return item
    }),
  ).catch((error: unknown) => {
    inFlight.delete(made.id)
    throw error
  })
}

/** Where the browser has Background Sync, the service worker wakes the outbox when the network returns. */
async function askForBackgroundSync(): Promise<void> {
  try {
    const registration = await navigator.serviceWorker?.getRegistration()
    const sync = (
      registration as
        | (ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
        | undefined
    )?.sync
    await sync?.register('trousseau-outbox')
  } catch {
    // Not supported, or refused: the app's own triggers (online, foreground, timer) still drain it.
  }
}

/** Records what one attempt at sending `item` gave; answers whether the outbox may go on to the next one. */
export async function settle(item: OutboxItem, outcome: SendOutcome, now = new Date()): Promise<boolean> {
  return withDb(async (db) => {
    const current = await db.outbox.get(item.id)
    // Discarded meanwhile, or already settled by another attempt (the same answer, thanks to the key).
    if (!current || current.status === 'sent') return true
    const attempts = current.attempts + 1
    if (outcome.kind === 'sent') {
      await db.outbox.update(item.id, {
        status: 'sent',
        attempts,
        result: outcome.result,
        error: null,
        sentAt: now.toISOString(),
      })
      return true
    }
    if (outcome.kind === 'refused') {
      const { status, code, message } = outcome
      await db.outbox.update(item.id, { status: 'failed', attempts, error: { status, code, message } })
      return true
    }
    if (outcome.kind === 'serverError') {
      const serverErrors = serverErrorsOf(current) + 1
      if (serverErrors >= SERVER_ERROR_LIMIT) {
        const { status, code, message } = outcome
        const failed: Partial<CountedItem> = {
          status: 'failed',
          attempts,
          serverErrors,
          error: { status, code, message },
        }
        await db.outbox.update(item.id, failed)
        return true
      }
      const counted: Partial<CountedItem> = {
        attempts,
        serverErrors,
        nextAttemptAt: now.getTime() + backoffDelay(attempts),
      }
      await db.outbox.update(item.id, counted)
      return false
    }
    // No answer: not a server error (the run of them goes on where it was), and never a reason to give up.
    await db.outbox.update(item.id, { attempts, nextAttemptAt: now.getTime() + backoffDelay(attempts) })
    void askForBackgroundSync()
    return false
  })
}

export type DrainReport = {
  sent: number
  refused: number
  /** Items kept as failed after `SERVER_ERROR_LIMIT` server errors in a row. */
  serverFailed: number
  stoppedUnreachable: boolean
  nextAttemptAt: number | null
}

/**
 * Sends the signed-in user's pending items in the order they were made, one at a time. A refused item is kept as
 * failed and the next one goes; a server error or no answer stops the drain (the server or the network is down:
 * the rest would fail the same way) and the item waits for its backoff, until its `SERVER_ERROR_LIMIT`-th server
 * error in a row makes it failed and the next one goes. `force` ignores the backoff (the network just came back).
 */
export async function drain(
  transport: Transport,
  options: {
    userId: string
    now?: () => Date
    force?: boolean
    /** Items that must wait (a scan made in another organization than the selected one). */
    canSend?: (item: OutboxItem) => boolean
  },
): Promise<DrainReport> {
  const now = options.now ?? (() => new Date())
  const report: DrainReport = {
    sent: 0,
    refused: 0,
    serverFailed: 0,
    stoppedUnreachable: false,
    nextAttemptAt: null,
  }
  for (;;) {
    const next = await withDb((db) =>
      db.outbox
        .where('[status+seq]')
        .between(['pending', -Infinity], ['pending', Infinity])
        // Another account's actions wait for that account: they are never sent with this session.
        .filter(
          (item) =>
            item.userId === options.userId && !inFlight.has(item.id) && (options.canSend?.(item) ?? true),
        )
        .first(),
    )
    if (!next) return report
    if (!options.force && next.nextAttemptAt > now().getTime()) {
      report.nextAttemptAt = next.nextAttemptAt
      return report
    }
    const outcome = await transport(next).catch((): SendOutcome => ({ kind: 'unreachable' }))
    const goOn = await settle(next, outcome, now())
    if (outcome.kind === 'sent') report.sent += 1
    if (outcome.kind === 'refused') report.refused += 1
    if (outcome.kind === 'serverError' && goOn) report.serverFailed += 1
    if (!goOn) {
      report.stoppedUnreachable = true
      report.nextAttemptAt = now().getTime() + backoffDelay(next.attempts + 1)
      return report
    }
  }
}

/**
 * Puts a failed item back in line (the person fixed the cause, or wants another try), under the same
 * `Idempotency-Key`, with a new run of server errors ahead of it.
 */
export async function retryItem(id: string): Promise<void> {
  const again: Partial<CountedItem> = { status: 'pending', nextAttemptAt: 0, error: null, serverErrors: 0 }
  await withDb((db) => db.outbox.update(id, again))
}

/** Removes an item the person chose to give up (only failed ones: pending work is never dropped). */
export async function discardItem(id: string): Promise<void> {
  await withDb(async (db) => {
    const item = await db.outbox.get(id)
    if (item && item.status === 'failed') await db.outbox.delete(id)
  })
}

/** Sent items are kept a while to show what went; older ones are pruned. */
export const SENT_KEPT_MS = 24 * 60 * 60 * 1000

export async function pruneSent(now = new Date()): Promise<void> {
  const before = new Date(now.getTime() - SENT_KEPT_MS).toISOString()
  await withDb((db) =>
    db.outbox
      .where('status')
      .equals('sent')
      .filter((item) => (item.sentAt ?? '') < before)
      .delete(),
  )
}

/** Whether the user has anything waiting to be sent. */
export async function hasPending(userId: string): Promise<boolean> {
  return withDb(
    async (db) =>
      (await db.outbox
        .where('status')
        .equals('pending')
        .filter((item) => item.userId === userId)
        .count()) > 0,
  )
}

export async function outboxItems(): Promise<OutboxItem[]> {
  return withDb((db) => db.outbox.orderBy('seq').toArray())
}
