import { Plural, Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { leaversQuery } from '../../api/reports.ts'
import { useAbility } from '../../lib/ability.tsx'

/** On a member's page, while they left the organization with keys: how many, and that they are to come back. */
export function LeftWithKeys({ organizationId, userId }: { organizationId: string; userId: string }) {
  const canReadReports = useAbility().can('read', 'activity')
  const leavers = useQuery({ ...leaversQuery(organizationId), enabled: canReadReports })
  const leaver = leavers.data?.data.find((each) => each.person.id === userId)
  if (!leaver) return null
  return (
    <p
      role="status"
      className="max-w-2xl rounded-xl border border-red-200 bg-red-50 p-4 font-medium text-red-900"
    >
      <Trans>
        Left with <Plural value={leaver.keychains} one="# keychain" other="# keychains" />: ask for them back
        or record who holds them now.
      </Trans>
    </p>
  )
}
