import type { QueryClient } from '@tanstack/react-query'
import type { Profile } from '../../contract/auth.ts'
import { keychainQuery } from '../api/keychain-one.ts'
import { startLoading } from './start-loading.ts'

// Apart from start-loading.ts: the other detail pages' loaders would otherwise carry the keychain data layer.
/** The loader of the pages of one keychain (its page, its transfer authorization): the keychain itself. */
export function startLoadingKeychain(
  context: { queryClient: QueryClient; profile: Profile },
  keychainId: string,
): void {
  const organizationId = context.profile.selectedOrganizationId
  if (organizationId) startLoading(context.queryClient, keychainQuery(organizationId, keychainId))
}
