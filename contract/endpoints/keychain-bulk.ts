import {
  BulkCustodianSchema,
  BulkDeletionSchema,
  BulkHeadersSchema,
  BulkResultSchema,
  BulkTransferSchema,
} from '../keychain-bulk.ts'
import { endpoint } from './endpoint.ts'

/**
 * Actions on many keychains of the selected organization at once, named by `ids` or matched by a `filter`:
 * each one transaction (all or nothing), once per Idempotency-Key.
 */
export const keychainBulkEndpoints = {
  custodian: endpoint({
    method: 'post',
    path: '/keychain-bulk/custodian-changes',
    headers: BulkHeadersSchema,
    body: BulkCustodianSchema,
    response: BulkResultSchema,
  }),
  deletion: endpoint({
    method: 'post',
    path: '/keychain-bulk/deletions',
    headers: BulkHeadersSchema,
    body: BulkDeletionSchema,
    response: BulkResultSchema,
  }),
  transfers: endpoint({
    method: 'post',
    path: '/keychain-bulk/transfers',
    headers: BulkHeadersSchema,
    body: BulkTransferSchema,
    response: BulkResultSchema,
  }),
}
