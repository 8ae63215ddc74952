import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { Profile } from '../../contract/auth.ts'
import { afterLoadWhenIdle } from '../lib/idle.ts'

/** How often the mirror asks the change feed for news while the app is visible and online. */
const SYNC_EVERY_MS = 30 * 1000
/** How often the rest (organizations, dashboard, requests in other organizations) is fetched again. */
const REFRESH_EVERY_MS = 5 * 60 * 1000

// Dexie and the worker load once the page is idle after its first load, off the scan path's budget and off
// the network and main thread while the page itself loads.
const fieldMode = () => import('../offline/field-mode.ts')

let wakeWorker: ((force?: boolean) => unknown) | null = null

/** Wakes the outbox now (from the sync panel). */
export function wakeOutbox(force = false): void {
  wakeWorker?.(force)
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

  // biome-ignore lint/correctness/useExhaustiveDependencies: one worker per account, restarted when it changes
  useEffect(() => {
    let stopped = false
    let stop: (() => void) | null = null
    const cancelStart = afterLoadWhenIdle(() => {
      void fieldMode()
        .then((mode) =>
          mode.startFieldMode({
            profile: latest.current,
            onChanged: () => {
              void queryClient.invalidateQueries()
              // What was sent may change what waits for me (a return): the icon's badge follows.
              void import('../api/notices.ts').then(({ refreshBadge }) => refreshBadge()).catch(() => {})
            },
          }),
        )
        .then((worker) => {
          if (stopped) return worker.stop()
          stop = worker.stop
          wakeWorker = worker.wake
        })
        .catch((error: unknown) => console.warn('Field mode could not start', error))
    })
    return () => {
      stopped = true
      cancelStart()
      stop?.()
      wakeWorker = null
    }
  }, [userId, queryClient])

  // biome-ignore lint/correctness/useExhaustiveDependencies: synced again when the organization or rights change
  useEffect(() => {
    const syncing = () => fieldMode().then((mode) => mode.syncFieldMirror(mode.fieldContext(latest.current)))
    const sync = () => {
      if (document.visibilityState === 'hidden') return
      void syncing()
    }
    const refresh = () =>
      void fieldMode().then((mode) => mode.refreshFieldExtras(mode.fieldContext(latest.current)))
    // The first time, one after the other: both write the mirror, and together they made longer tasks.
    const cancelFirst = afterLoadWhenIdle(() => {
      if (document.visibilityState === 'hidden') refresh()
      else void syncing().finally(refresh)
    })
    const syncTimer = setInterval(sync, SYNC_EVERY_MS)
    const refreshTimer = setInterval(refresh, REFRESH_EVERY_MS)
    const online = () => {
      sync()
      refresh()
    }
    window.addEventListener('online', online)
    window.addEventListener('focus', sync)
    document.addEventListener('visibilitychange', sync)
    return () => {
      cancelFirst()
      clearInterval(syncTimer)
      clearInterval(refreshTimer)
      window.removeEventListener('online', online)
      window.removeEventListener('focus', sync)
      document.removeEventListener('visibilitychange', sync)
    }
  }, [userId, selectedOrganizationId, permissions])
}
