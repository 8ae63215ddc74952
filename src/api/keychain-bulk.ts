import { keychainBulkEndpoints } from '../../contract/endpoints/keychain-bulk.ts'
import type { BulkCustodian, BulkDeletion, BulkTransfer } from '../../contract/keychain-bulk.ts'
import { call } from '../lib/call.ts'
import { keychainKeys } from './keychain-keys.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

/** Changes the custodian of the selection, once per `key`; the keychain lists are fetched again. */
export const useBulkCustodian = (organizationId: string) =>
  useRefetchingMutation(keychainKeys.all(organizationId), (input: { body: BulkCustodian; key: string }) =>
    call(keychainBulkEndpoints.custodian, { body: input.body, headers: { 'Idempotency-Key': input.key } }),
  )

/** Deletes the selection, once per `key`; the keychain lists are fetched again. */
export const useBulkDeletion = (organizationId: string) =>
  useRefetchingMutation(keychainKeys.all(organizationId), (input: { body: BulkDeletion; key: string }) =>
    call(keychainBulkEndpoints.deletion, { body: input.body, headers: { 'Idempotency-Key': input.key } }),
  )

/** Authorizes a transfer of each keychain of the selection to one recipient, once per `key`. */
export const useBulkTransfers = (organizationId: string) =>
  useRefetchingMutation(keychainKeys.all(organizationId), (input: { body: BulkTransfer; key: string }) =>
    call(keychainBulkEndpoints.transfers, { body: input.body, headers: { 'Idempotency-Key': input.key } }),
  )
