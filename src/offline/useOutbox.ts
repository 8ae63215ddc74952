import { useEffect, useState } from 'react'
import type { OutboxItem } from './db.ts'

/** The user's outbox as it changes, oldest first; null until first read (Dexie loads on first use). */
export function useOutbox(userId: string): OutboxItem[] | null {
  const [items, setItems] = useState<OutboxItem[] | null>(null)
  useEffect(() => {
    let stop: (() => void) | null = null
    let gone = false
    void import('./live.ts').then(({ watchOutbox }) => {
      if (!gone) stop = watchOutbox(userId, setItems)
    })
    return () => {
      gone = true
      stop?.()
    }
  }, [userId])
  return items
}
