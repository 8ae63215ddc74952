import { liveQuery } from 'dexie'
import type { OutboxItem } from './db.ts'
import { outboxItems } from './outbox.ts'

/**
 * Calls `next` with the user's outbox now and after every change (this tab's writes and other tabs'); answers
 * the way to stop. A read that fails (the database connection lost) starts watching again.
 */
export function watchOutbox(userId: string, next: (items: OutboxItem[]) => void): () => void {
  let subscription: { unsubscribe(): void } | null = null
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  const watch = () => {
    subscription = liveQuery(outboxItems).subscribe({
      next: (all) => next(all.filter((item) => item.userId === userId)),
      error: (error: unknown) => {
        console.warn('Outbox read failed', error)
        if (!stopped) retry = setTimeout(watch, 2000)
      },
    })
  }
  watch()
  return () => {
    stopped = true
    clearTimeout(retry)
    subscription?.unsubscribe()
  }
}
