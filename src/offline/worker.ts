import type { OutboxKind } from './db.ts'
import { BACKOFF_BASE_MS, type DrainReport, drain, hasPending, pruneSent, type Transport } from './outbox.ts'

const LOCK_NAME = 'trousseau-outbox'
const LEASE_KEY = 'trousseau-outbox-lease'

/** Kinds read in the selected organization: they wait until their own is selected again. */
const IN_SELECTED_ORGANIZATION: ReadonlySet<OutboxKind> = new Set([
  'scan',
  'pairCreate',
  'pairAttach',
  'hookScan',
  'stocktakeScan',
  'handover',
])

/** Without Web Locks, a tab holds the drain for at most this long (it renews while draining). */
const LEASE_MS = 30_000

/**
 * Runs `work` only if no other tab of this app is draining the outbox: Web Locks where the browser has them,
 * else a lease in localStorage. Answers null when another tab has it.
 */
export async function asSingleDrainer<T>(work: () => Promise<T>, tabId: string): Promise<T | null> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(LOCK_NAME, { ifAvailable: true }, async (lock) => (lock ? work() : null))
  }
  const lease = readLease()
  if (lease && lease.tab !== tabId && lease.until > Date.now()) return null
  writeLease(tabId)
  // A drain may outlast the lease (1 000 scans on a slow line): renew it while this tab still holds it.
  const renewal = setInterval(() => {
    if (readLease()?.tab === tabId) writeLease(tabId)
    else clearInterval(renewal)
  }, LEASE_MS / 3)
  try {
    return await work()
  } finally {
    clearInterval(renewal)
    if (readLease()?.tab === tabId) localStorage.removeItem(LEASE_KEY)
  }
}

function readLease(): { tab: string; until: number } | null {
  return JSON.parse(localStorage.getItem(LEASE_KEY) ?? 'null') as { tab: string; until: number } | null
}

function writeLease(tabId: string): void {
  localStorage.setItem(LEASE_KEY, JSON.stringify({ tab: tabId, until: Date.now() + LEASE_MS }))
}

export type OutboxWorker = {
  /** Drains now (e.g. right after a new action); `force` ignores the backoff (the network came back). */
  wake(force?: boolean): Promise<DrainReport | null>
  stop(): void
}

/**
 * The one loop that sends the signed-in user's outbox: at start-up, when the browser says it is online, when
 * the app comes back to the foreground, when the service worker's Background Sync fires, and on a timer at
 * the next item's backoff. Drains never overlap, in this tab or across tabs.
 */
export function startOutboxWorker(input: {
  userId: string
  /**
   * The account this tab's session belongs to now (null: someone else signed in, in another tab), asked before
   * each drain; it throws when the server cannot be reached.
   */
  session?: () => Promise<{ selectedOrganizationId: string | null } | null>
  transport: Transport
  onDrained?: (report: DrainReport) => void
}): OutboxWorker {
  const tabId = crypto.randomUUID()
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<DrainReport | null> | null = null
  let stopped = false

  const schedule = (at: number | null) => {
    clearTimeout(timer)
    if (stopped) return
    // Another tab may hold the drain: look again later in any case.
    const delay = at === null ? 60_000 : Math.max(BACKOFF_BASE_MS / 2, at - Date.now())
    timer = setTimeout(() => void wake(), delay)
  }

  const wake = async (force = false): Promise<DrainReport | null> => {
    if (stopped) return null
    // The network came back during a drain that found none: go again at once when it ends.
    if (running) {
      if (force) void running.then(() => wake(true))
      return running
    }
    running = (async () => {
      try {
        const report = await asSingleDrainer(async () => {
          // An empty outbox needs no session check (the timer looks every minute).
          if (!(await hasPending(input.userId))) return drain(input.transport, { userId: input.userId })
          const session = input.session
            ? await input.session().catch(() => undefined)
            : { selectedOrganizationId: null }
          // No answer: try later. Another account's session: never send this account's work with it.
          if (session === undefined)
            return { sent: 0, refused: 0, serverFailed: 0, stoppedUnreachable: true, nextAttemptAt: null }
          if (session === null) return null
          return drain(input.transport, {
            userId: input.userId,
            force,
            // A scan or a pairing is made in the selected organization: it waits until its own is selected again.
            canSend: (item) =>
              !IN_SELECTED_ORGANIZATION.has(item.kind) ||
              !input.session ||
              item.organizationId === session.selectedOrganizationId,
          })
        }, tabId)
        if (report) {
          input.onDrained?.(report)
          await pruneSent()
        }
        schedule(report?.nextAttemptAt ?? null)
        return report
      } catch (error) {
        console.warn('Outbox drain failed', error)
        schedule(Date.now() + 10_000)
        return null
      } finally {
        running = null
      }
    })()
    return running
  }

  const online = () => void wake(true)
  const visible = () => {
    if (document.visibilityState === 'visible') void wake()
  }
  const fromServiceWorker = (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'drain-outbox') void wake(true)
  }
  window.addEventListener('online', online)
  document.addEventListener('visibilitychange', visible)
  navigator.serviceWorker?.addEventListener('message', fromServiceWorker)
  void wake()

  return {
    wake,
    stop() {
      stopped = true
      clearTimeout(timer)
      window.removeEventListener('online', online)
      document.removeEventListener('visibilitychange', visible)
      navigator.serviceWorker?.removeEventListener('message', fromServiceWorker)
    },
  }
}
