import * as v from 'valibot'
import { handoverEndpoints } from '../../contract/endpoints/handovers.ts'
import { keychainEndpoints } from '../../contract/endpoints/keychains.ts'
import { placeEndpoints } from '../../contract/endpoints/places.ts'
import { scanEndpoints } from '../../contract/endpoints/scans.ts'
import { stocktakeEndpoints } from '../../contract/endpoints/stocktakes.ts'
import { transferEndpoints } from '../../contract/endpoints/transfers.ts'
import { CLIENT_TIME_HEADER, FROM_QUEUE_HEADER, IDEMPOTENCY_KEY_HEADER } from '../../contract/scans.ts'
import { ApiError } from '../lib/api.ts'
import { call } from '../lib/call.ts'
import type { OutboxItem } from './db.ts'
import type { SendOutcome } from './outbox.ts'

/** Statuses that say "not now" rather than "no": the item is tried again later. */
const TRANSIENT = new Set([0, 401, 408, 425, 429])

/** A request that has not answered by then is treated as no answer (and tried again later). */
const QUEUE_TIMEOUT_MS = 30_000

/**
 * Sends one outbox item to the API with its UUID as `Idempotency-Key`, the device's time, and whether it comes
 * from the queue (`fromQueue`: false for the first, immediate try).
 */
export async function sendItem(
  item: OutboxItem,
  fromQueue: boolean,
  signal: AbortSignal = AbortSignal.timeout(QUEUE_TIMEOUT_MS),
): Promise<SendOutcome> {
  const headers = {
    [IDEMPOTENCY_KEY_HEADER]: item.id,
    [CLIENT_TIME_HEADER]: item.clientTime,
    [FROM_QUEUE_HEADER]: fromQueue ? '1' : '0',
  }
  try {
    const result = await request(item, headers, signal)
    return { kind: 'sent', result }
  } catch (error) {
    if (error instanceof v.ValiError) return { kind: 'unreachable' }
    if (!(error instanceof ApiError) || TRANSIENT.has(error.status)) return { kind: 'unreachable' }
    const { status, code, message } = error
    // The server answered but failed: tried again, and after a few such answers in a row kept as failed.
    if (status >= 500) return { kind: 'serverError', status, code, message }
    const reason = error.details?.reason
    return reason
      ? { kind: 'refused', status, code, message, reason }
      : { kind: 'refused', status, code, message }
  }
}

/** The call an item stands for, made with its headers. */
function request(item: OutboxItem, headers: Record<string, string>, signal: AbortSignal) {
  // Pairing a scanned free tag: a new keychain with the tag as its first key, or the tag on a keychain.
  const tagKey = { type: 'TAG' as const, name: item.keyName ?? '', tagId: item.value }
  switch (item.kind) {
    case 'pairCreate':
      return call(keychainEndpoints.create, {
        body: { name: item.name ?? '', firstKey: tagKey },
        headers,
        signal,
      })
    case 'pairAttach':
      return call(keychainEndpoints.addKey, {
        params: { id: item.keychainId ?? '' },
        body: tagKey,
        headers,
        signal,
      })
    case 'scan':
      return call(scanEndpoints.record, { body: { value: item.value }, headers, signal })
    case 'extension':
      return call(transferEndpoints.requestExtension, {
        params: { id: item.value },
        // Stryker disable next-line StringLiteral: an extension item is always kept with its to-date
        body: { toDate: item.toDate ?? '' },
        headers,
        signal,
      })
    case 'hookScan':
      return call(placeEndpoints.hookScan, {
        params: { id: item.keychainId ?? '' },
        body: { value: item.value, makeHome: item.makeHome ?? false },
        headers,
        signal,
      })
    case 'stocktakeScan':
      return call(stocktakeEndpoints.scan, {
        params: { id: item.stocktakeId ?? '' },
        body: {
          value: item.value,
          hookId: item.hookId ?? null,
          deviceId: item.deviceId ?? '',
          deviceSeq: item.deviceSeq ?? 0,
        },
        headers,
        signal,
      })
    case 'handover':
      return call(handoverEndpoints.submit, {
        // Stryker disable next-line ObjectLiteral: a handover item is always kept with its two codes
        body: item.handover ?? { offer: '', acceptance: '' },
        headers,
        signal,
      })
    default:
      return call(transferEndpoints.pickup, {
        params: { id: item.value },
        // A first pickup carries the acceptance (the receipt); a return, or an item an older app kept, none.
        body: item.acceptance ? { acceptance: item.acceptance } : undefined,
        headers,
        signal,
      })
  }
}
