import { useMutation } from '@tanstack/react-query'
import { keychainImportEndpoints } from '../../contract/endpoints/keychain-imports.ts'
import { call } from '../lib/call.ts'
import { keychainKeys } from './keychain-keys.ts'
import { useRefetchingMutation } from './refetching-mutation.ts'

/** Reads and checks a file on the server; nothing is written. */
export const usePreviewImport = () =>
  useMutation({ mutationFn: (csv: string) => call(keychainImportEndpoints.preview, { body: { csv } }) })

/** Imports the file, once per `key` (the same key for a double submit); the keychain lists are fetched again. */
export const useCommitImport = (organizationId: string) =>
  useRefetchingMutation(keychainKeys.all(organizationId), (input: { csv: string; key: string }) =>
    call(keychainImportEndpoints.commit, {
      body: { csv: input.csv },
      headers: { 'Idempotency-Key': input.key },
    }),
  )
