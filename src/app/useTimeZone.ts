import { useQuery } from '@tanstack/react-query'
import { DEFAULT_TIME_ZONE } from '../../contract/organizations.ts'
import { organizationsQuery } from '../api/organizations.ts'

/** The organization's time zone (its calendar days and months), Europe/Paris until the list has loaded. */
export function useTimeZone(organizationId: string): string {
  const { data } = useQuery(organizationsQuery)
  return data?.find((organization) => organization.id === organizationId)?.timeZone ?? DEFAULT_TIME_ZONE
}
