import type { HookScanResult } from '../../contract/places.ts'
import type { StocktakeScanResult } from '../../contract/stocktakes.ts'
import { type OutboxItem, withDb } from './db.ts'
import { type FieldContext, keepThenSend } from './field.ts'

// Stryker disable next-line StringLiteral: the meta key's name is no rule (any fixed name will do)
const DEVICE_KEY = 'device-id'

/**
 * This device's id (made once, kept with the outbox): stocktakes count each device's scans, so the server can
 * tell when one still has scans on the way.
 */
export async function deviceId(): Promise<string> {
  return withDb((db) =>
    db.transaction('rw', db.meta, async () => {
      const kept = await db.meta.get(DEVICE_KEY)
      if (kept) return kept.value
      const made = crypto.randomUUID()
      await db.meta.put({ key: DEVICE_KEY, value: made })
      return made
    }),
  )
}

/** The meta counter of this device's scans of one stocktake (`OutboxItem.deviceSeq` comes from it). */
const scanCounter = (stocktakeId: string) => `stocktake-scans:${stocktakeId}`

/** How many scans this device has made for the stocktake, sent or not: what it tells the server it made. */
export async function scansMade(stocktakeId: string): Promise<number> {
  return withDb(async (db) => Number((await db.meta.get(scanCounter(stocktakeId)))?.value ?? 0))
}

/** This device's scans of the stocktake that the server has not had yet (pending, or refused and kept), in order. */
export async function unsentStocktakeScans(stocktakeId: string): Promise<OutboxItem[]> {
  return withDb((db) =>
    db.outbox
      .where('status')
      .anyOf('pending', 'failed')
      // Only stocktake scans carry a stocktake id.
      .filter((item) => item.stocktakeId === stocktakeId)
      .sortBy('seq'),
  )
}

/**
 * A label or tag scanned in a stocktake: kept in the outbox with this device's next number for that stocktake
 * and the hook scanned last (where the tag hangs), then sent. Offline, `result` is null: the screen counts it
 * from its own copy until the server answers.
 */
export async function submitStocktakeScan(
  context: FieldContext,
  scan: { stocktakeId: string; value: string; hookId: string | null; label: string },
): Promise<{ item: OutboxItem; result: StocktakeScanResult | null; queued: boolean }> {
  return keepThenSend<StocktakeScanResult>({
    kind: 'stocktakeScan',
    ...context,
    value: scan.value,
    label: scan.label,
    stocktake: {
      stocktakeId: scan.stocktakeId,
      hookId: scan.hookId,
      deviceId: await deviceId(),
      counter: scanCounter(scan.stocktakeId),
    },
  })
}

/**
 * After a return: the hook label the keychain was put on. Kept, then sent; offline the screen says whether it
 * is the keychain's home from the mirror until the server decides.
 */
export async function submitHookScan(
  context: FieldContext,
  scan: { keychainId: string; value: string; makeHome: boolean; label: string },
): Promise<{ result: HookScanResult | null; queued: boolean }> {
  const { result, queued } = await keepThenSend<HookScanResult>({
    kind: 'hookScan',
    ...context,
    value: scan.value,
    label: scan.label,
    hook: { keychainId: scan.keychainId, makeHome: scan.makeHome },
  })
  return { result, queued }
}
