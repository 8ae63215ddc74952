import type { Person } from '../../../contract/common.ts'
import type { ScanResult } from '../../../contract/scans.ts'
import type { Transfer } from '../../../contract/transfers.ts'

type Resolved = Extract<ScanResult, { status: 'resolved' }>

/**
 * Who holds a scanned keychain, as the card should say it after the latest move:
 * - `hidden`: the caller may not see the holder (a contact), or it was just returned (the transfer says where
 *   custody went: back to the organization);
 * - a transfer that is out (TRANSFERRED or RETURNING) is held by its recipient, whatever an older copy says
 *   (the scan's answer before the pickup, or the device's copy after a pickup made offline);
 * - otherwise the keychain's custodian, or nobody.
 */
export function holderAfterMove(
  result: Resolved,
  moved: Transfer | null,
): { kind: 'hidden' } | { kind: 'person'; person: Person } | { kind: 'nobody' } {
  if (!result.keychain || !result.actions.includes('read__keychain')) return { kind: 'hidden' }
  const transfer = moved ?? result.transfer
  if (transfer && (transfer.status === 'TRANSFERRED' || transfer.status === 'RETURNING'))
    return { kind: 'person', person: transfer.recipient }
  if (moved?.status === 'RETURNED') return { kind: 'hidden' }
  const custodian = result.keychain.custodian
  return custodian ? { kind: 'person', person: custodian } : { kind: 'nobody' }
}
