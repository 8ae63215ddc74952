import { liveQuery } from 'dexie'
import { useEffect, useState } from 'react'
import type { OutboxItem } from './db.ts'
import { outboxItems } from './outbox.ts'

/** The outbox as it changes (this tab's writes and the drain's), oldest first; null until first read. */
export function useOutbox(userId: string): OutboxItem[] | null {
  const [items, setItems] = useState<OutboxItem[] | null>(null)
  useEffect(() => {
    const subscription = liveQuery(outboxItems).subscribe({
      next: (all) => setItems(all.filter((item) => item.userId === userId)),
      error: (error: unknown) => console.warn('Outbox read failed', error),
    })
    return () => subscription.unsubscribe()
  }, [userId])
  return items
}
