import { useEffect, useState } from 'react'
import { afterLoadWhenIdle } from '../lib/idle.ts'
import type { OutboxItem } from './db.ts'

/**
 * The user's outbox as it changes, oldest first; null until first read. Dexie loads, and the database opens,
 * once the page is idle after its first load: on a phone, opening it on a fresh profile is a long task.
 */
export function useOutbox(userId: string): OutboxItem[] | null {
  const [items, setItems] = useState<OutboxItem[] | null>(null)
  useEffect(() => {
    let stop: (() => void) | null = null
    let gone = false
    const cancelStart = afterLoadWhenIdle(() => {
      void import('./live.ts').then(({ watchOutbox }) => {
        if (!gone) stop = watchOutbox(userId, setItems)
      })
    })
    return () => {
      gone = true
      cancelStart()
      stop?.()
    }
  }, [userId])
  return items
}
