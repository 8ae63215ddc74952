import { Trans } from '@lingui/react/macro'
import type { KeychainStatus, KeychainSummary } from '../../../contract/keychains.ts'
import { formatDate } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Badge, type BadgeTone } from '../../ui/Badge.tsx'

const TONES: Record<KeychainStatus, BadgeTone> = {
  FREE: 'neutral',
  HELD: 'success',
  SCHEDULED: 'brand',
  OUT: 'warning',
  OVERDUE: 'danger',
}

/**
 * Where a keychain stands, in one badge with its date: free, held by someone, scheduled from a day, out until
 * its due date, overdue since it. Nothing for a row mirrored before statuses existed (offline copy).
 */
export function KeychainStatusBadge({
  keychain,
  timeZone,
}: {
  keychain: Pick<KeychainSummary, 'status' | 'custodian' | 'transfer'>
  timeZone: string
}) {
  const locale = useLocale()
  const { status, custodian, transfer } = keychain
  if (!status) return null
  const day = (value: string) => formatDate(value, locale, timeZone)
  const holder = custodian ? personName(custodian) : ''
  return (
    <Badge tone={TONES[status]}>
      {status === 'FREE' ? (
        <Trans context="custody">Free</Trans>
      ) : status === 'HELD' ? (
        <Trans>Held by {holder}</Trans>
      ) : status === 'SCHEDULED' && transfer ? (
        <Trans>Scheduled from {day(transfer.startsAt)}</Trans>
      ) : status === 'OUT' && transfer ? (
        <Trans>Out until {day(transfer.endsAt)}</Trans>
      ) : status === 'OVERDUE' && transfer ? (
        <Trans>Overdue since {day(transfer.endsAt)}</Trans>
      ) : status === 'SCHEDULED' ? (
        <Trans>Scheduled</Trans>
      ) : status === 'OUT' ? (
        <Trans>Out</Trans>
      ) : (
        <Trans>Overdue</Trans>
      )}
    </Badge>
  )
}
