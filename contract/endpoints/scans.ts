import { ScanHeadersSchema, ScanRequestSchema, ScanResultSchema } from '../scans.ts'
import { endpoint } from './endpoint.ts'

/** A scan, recorded and resolved (idempotent by `Idempotency-Key`). */
export const scanEndpoints = {
  record: endpoint({
    method: 'post',
    path: '/scans',
    headers: ScanHeadersSchema,
    body: ScanRequestSchema,
    response: ScanResultSchema,
  }),
}
