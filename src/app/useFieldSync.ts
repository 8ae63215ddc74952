import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { Profile } from '../../contract/auth.ts'
import { claimMirror, mirrorProfile } from '../offline/mirror.ts'
import { refreshMirror } from '../offline/refresh.ts'
import { requestPersistentStorage } from '../offline/storage.ts'
import { sendItem } from '../offline/transport.ts'
import { type OutboxWorker, startOutboxWorker } from '../offline/worker.ts'

/** How often the mirror is refreshed in the background while the app is open and online. */
const REFRESH_EVERY_MS = 5 * 60 * 1000

let worker: OutboxWorker | null = null

/** Wakes the outbox now (after a new field action, or from the sync panel). */
export function wakeOutbox(force = false): void {
  void worker?.wake(force)
}

async function refresh(profile: Profile) {
  if (!navigator.onLine || !profile.selectedOrganizationId) return
  await refreshMirror({
    userId: profile.id,
    organizationId: profile.selectedOrganizationId,
    permissions: profile.permissions,
  }).catch((error: unknown) => console.warn('Mirror refresh failed', error))
}

/**
 * The signed-in user's field mode: the mirror belongs to them (another account's is forgotten first), is
 * refreshed in the background, and their outbox is drained by one worker; what it sends refreshes the screens.
 */
export function useFieldSync(profile: Profile): void {
  const queryClient = useQueryClient()
  const latest = useRef(profile)
  latest.current = profile
  const { id: userId, selectedOrganizationId } = profile
  const permissions = profile.permissions.join(',')
  useEffect(() => {
    let stopped = false
    void requestPersistentStorage()
    const ready = claimMirror(userId).then(() => mirrorProfile(latest.current))
    void ready.then(() => {
      if (stopped) return
      worker?.stop()
      worker = startOutboxWorker({
        userId,
        transport: (item) => sendItem(item, true),
        onDrained: (report) => {
          if (report.sent + report.refused > 0) void queryClient.invalidateQueries()
        },
      })
    })
    return () => {
      stopped = true
      worker?.stop()
      worker = null
    }
  }, [userId, queryClient])

  // biome-ignore lint/correctness/useExhaustiveDependencies: refreshed when the organization or rights change
  useEffect(() => {
    void claimMirror(userId).then(() => refresh(latest.current))
    const timer = setInterval(() => void refresh(latest.current), REFRESH_EVERY_MS)
    const online = () => void refresh(latest.current)
    window.addEventListener('online', online)
    return () => {
      clearInterval(timer)
      window.removeEventListener('online', online)
    }
  }, [userId, selectedOrganizationId, permissions])
}
