import { useEffect, useRef, useState } from 'react'
import { parseLocationLabel } from '../../../contract/places.ts'
import type { OutboxItem } from '../../offline/db.ts'
import { useOutbox } from '../../offline/useOutbox.ts'
import type { LocalScan } from './local-tally.ts'

/** This device's scans of the stocktake that the server has not had (pending, or refused and kept), oldest first. */
function unsentScansOf(items: readonly OutboxItem[] | null, stocktakeId: string): OutboxItem[] {
  return (items ?? []).filter(
    (item) => item.kind === 'stocktakeScan' && item.stocktakeId === stocktakeId && item.status !== 'sent',
  )
}

/**
 * The unsent scans as the tally reads them: each tag's keychain from the field mirror, looked up once per scan
 * (a thousand scans offline are not read again at every new one).
 */
export function useLocalScans(
  userId: string,
  organizationId: string,
  stocktakeId: string,
): { unsent: OutboxItem[]; scans: LocalScan[] } {
  const unsent = unsentScansOf(useOutbox(userId), stocktakeId)
  const resolved = useRef(new Map<string, LocalScan>())
  const [scans, setScans] = useState<LocalScan[]>([])
  const ids = unsent.map((item) => item.id).join(',')
  // biome-ignore lint/correctness/useExhaustiveDependencies: `ids` stands for the list of unsent scans
  useEffect(() => {
    let gone = false
    void (async () => {
      for (const item of unsent) {
        if (resolved.current.has(item.id)) continue
        resolved.current.set(item.id, await localScanOf(organizationId, item))
      }
      if (!gone) setScans(unsent.map((item) => resolved.current.get(item.id)!))
    })()
    return () => {
      gone = true
    }
  }, [ids, organizationId])
  return { unsent, scans }
}

async function localScanOf(organizationId: string, item: OutboxItem): Promise<LocalScan> {
  if (parseLocationLabel(item.value)) return { kind: 'hook' }
  const { mirroredTag } = await import('../../offline/mirror.ts')
  const tag = await mirroredTag(organizationId, item.value)
  return { kind: 'tag', keychainId: tag?.key?.keychainId ?? null, hookId: item.hookId ?? null }
}
