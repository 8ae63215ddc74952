import { useEffect, useState } from 'react'
import { afterLoadWhenIdle } from '../../lib/idle.ts'

/** The scan field's example when the organization's tags are not known on this device. */
const NEUTRAL_EXAMPLE = 'ABC-00042'

/**
 * The organization's tag prefix (`AGC` of `AGC-00042`) from the ids of the mirror's tag buckets
 * (`<organizationId>|<alpha code>|<block>`, see `offline/tag-store.ts`): the one with the most buckets, the
 * first in order on a tie; null when the organization has none.
 */
export function prefixOfBuckets(bucketIds: readonly string[], organizationId: string): string | null {
  const counts = new Map<string, number>()
  for (const id of bucketIds) {
    const [organization, alpha, block] = id.split('|')
    if (organization !== organizationId || block === undefined || !alpha) continue
    counts.set(alpha, (counts.get(alpha) ?? 0) + 1)
  }
  let best: string | null = null
  for (const [alpha, count] of [...counts].sort(([a], [b]) => a.localeCompare(b)))
    if (best === null || count > (counts.get(best) ?? 0)) best = alpha
  return best
}

async function mirroredTagPrefix(organizationId: string): Promise<string | null> {
  const { withDb } = await import('../../offline/db.ts')
  const ids = await withDb((db) => db.tagBuckets.where('id').startsWith(`${organizationId}|`).primaryKeys())
  return prefixOfBuckets(ids, organizationId)
}

/**
 * An example code for the scan field in the organization's own prefix (`AGC-00042`), read from this device's
 * copy of its tags once the page is idle (online or not); the neutral example until then, or without one.
 */
export function useTagExample(organizationId: string): string {
  const [prefix, setPrefix] = useState<string | null>(null)
  useEffect(() => {
    setPrefix(null)
    if (!organizationId) return
    let live = true
    const cancel = afterLoadWhenIdle(() => {
      mirroredTagPrefix(organizationId)
        .then((found) => {
          if (live) setPrefix(found)
        })
        .catch(() => undefined)
    })
    return () => {
      live = false
      cancel()
    }
  }, [organizationId])
  return prefix ? `${prefix}-00042` : NEUTRAL_EXAMPLE
}
