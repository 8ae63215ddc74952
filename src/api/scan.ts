import { ScanResultSchema } from '../../contract/scans.ts'
import { api } from '../lib/api.ts'

/** Sends a scan with its client-made id as `Idempotency-Key`, so a repeat never records it twice. */
export function postScan(value: string, idempotencyKey: string = crypto.randomUUID()) {
  return api('/scans', {
    method: 'POST',
    body: { value },
    headers: { 'Idempotency-Key': idempotencyKey, 'X-Client-Time': new Date().toISOString() },
    schema: ScanResultSchema,
  })
}
