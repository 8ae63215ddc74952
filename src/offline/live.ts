import { liveQuery } from 'dexie'
import type { OutboxItem } from './db.ts'
import { outboxItems } from './outbox.ts'

/**
 * Calls `next` with the user's outbox now and after every change (this tab's writes and other tabs'); answers
 * the way to stop. A read that fails (the database connection lost) starts watching again two seconds later;
 * stopping cancels that. An unsubscribed query reports no error, so nothing else can restart it.
 */
export function watchOutbox(userId: string, next: (items: OutboxItem[]) => void): () => void {
  let subscription: { unsubscribe(): void }
  let retry: ReturnType<typeof setTimeout> | undefined
  const watch = () => {
    subscription = liveQuery(outboxItems).subscribe({
      next: (all) => next(all.filter((item) => item.userId === userId)),
      error: (error: unknown) => {
        console.warn('Outbox read failed', error)
        retry = setTimeout(watch, 2000)
      },
    })
  }
  watch()
  return () => {
    clearTimeout(retry)
    subscription.unsubscribe()
  }
}
