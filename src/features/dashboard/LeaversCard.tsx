import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { UserX } from 'lucide-react'
import { leaversQuery } from '../../api/reports.ts'
import { Card } from '../../ui/Card.tsx'
import { LeaversList } from '../../ui/LeaversList.tsx'

/** Who left the organization with keys still in their custody; nothing when no one did. */
export function LeaversCard({ organizationId }: { organizationId: string }) {
  const leavers = useQuery(leaversQuery(organizationId))
  if (!leavers.data || leavers.data.data.length === 0) return null
  return (
    <Card className="flex flex-col gap-3 border-red-200">
      <h2 className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <UserX aria-hidden className="size-5 text-red-700" />
        <Trans>Left with keys</Trans>
      </h2>
      <LeaversList leavers={leavers.data.data} />
    </Card>
  )
}
