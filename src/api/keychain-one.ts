import { queryOptions } from '@tanstack/react-query'
import { keychainEndpoints } from '../../contract/endpoints/keychains.ts'
import { call } from '../lib/call.ts'
import { mirrored, mirrorStore } from '../offline/mirrored.ts'
import { keychainKeys } from './keychain-keys.ts'

// Apart from keychains.ts (lists, keys, writes): the pages that read one keychain and write nothing of it (a
// transfer's authorization, a handover) then load no more of the keychain data layer than this.
/** One keychain of the organization, answered from the field mirror when the server cannot be reached. */
export const keychainQuery = (organizationId: string, id: string) =>
  queryOptions({
    queryKey: keychainKeys.one(organizationId, id),
    queryFn: () =>
      mirrored(
        () => call(keychainEndpoints.one, { params: { id } }),
        (keychain) => mirrorStore().then((store) => store.mirrorKeychain(keychain)),
        async () => (await mirrorStore()).mirroredKeychain(id),
      ),
  })
