import { Trans, useLingui } from '@lingui/react/macro'
import type { Member } from '../../contract/organizations.ts'
import { personName, ROLE_LABELS, STATUS_LABELS } from '../lib/labels.ts'
import { AppLink } from './AppLink.tsx'
import { Badge, type BadgeTone } from './Badge.tsx'

const statusTone: Record<Member['status'], BadgeTone> = {
  ACTIVE: 'success',
  INVITED: 'warning',
  DISABLED: 'neutral',
}

/** Members with name, e-mail, role and status; on a phone each row stacks. */
export function MemberTable({ members, hrefOf }: { members: Member[]; hrefOf?: (member: Member) => string }) {
  const { i18n } = useLingui()
  return (
    <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full text-left text-sm">
        <thead className="hidden bg-slate-50 text-slate-700 sm:table-header-group">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              <Trans>Name</Trans>
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              <Trans>E-mail</Trans>
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              <Trans>Role</Trans>
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              <Trans>Status</Trans>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {members.map((member) => (
            <tr key={member.id} className="flex flex-col gap-1 px-4 py-3 sm:table-row sm:p-0">
              <td className="font-medium text-slate-900 sm:px-4 sm:py-3">
                {hrefOf ? <AppLink href={hrefOf(member)}>{personName(member)}</AppLink> : personName(member)}
              </td>
              <td className="break-all text-slate-700 sm:px-4 sm:py-3">{member.email}</td>
              <td className="text-slate-700 sm:px-4 sm:py-3">{i18n._(ROLE_LABELS[member.role])}</td>
              <td className="sm:px-4 sm:py-3">
                <Badge tone={statusTone[member.status]}>{i18n._(STATUS_LABELS[member.status])}</Badge>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
