import type { Member } from '../../../contract/organizations.ts'
import { personName } from '../../lib/labels.ts'

/** Who may hold a keychain: active and invited members of the organization, by name. */
export function custodianOptions(members: Member[]): Array<{ value: string; label: string }> {
  return members
    .filter((member) => member.status !== 'DISABLED')
    .map((member) => ({ value: member.id, label: personName(member) }))
    .sort((a, b) => a.label.localeCompare(b.label))
}
