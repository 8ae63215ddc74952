import type { KeychainSort } from '../../contract/keychains.ts'

/** The query keys of the selected organization's keychains: every write that changes one refetches under them. */
export const keychainKeys = {
  all: (organizationId: string) => ['keychains', organizationId] as const,
  list: (
    organizationId: string,
    q: string,
    custodianId: string,
    status = '',
    sort: KeychainSort = 'name',
    placeId = '',
  ) => ['keychains', organizationId, 'list', q, custodianId, status, sort, placeId] as const,
  one: (organizationId: string, id: string) => ['keychains', organizationId, id] as const,
  custody: (organizationId: string, id: string) => ['keychains', organizationId, id, 'custody'] as const,
  unusedTags: (organizationId: string, q: string) => ['keychains', organizationId, 'unused-tags', q] as const,
}
