import { Trans, useLingui } from '@lingui/react/macro'
import type { HeldKeychain, OpenTransfer } from '../../../contract/reports.ts'
import { formatCalendarDate, formatCalendarRange, formatDateTime } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { KEY_TYPE_LABELS, TRANSFER_STATUS_LABELS } from './labels.ts'
import { cellClass, ReportTable } from './ReportTable.tsx'

function Keys({ keychain }: { keychain: HeldKeychain }) {
  const { i18n } = useLingui()
  if (keychain.keys.length === 0) return <Trans>No keys</Trans>
  return (
    <ul>
      {keychain.keys.map((key, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: keys are listed in their keychain's order
        <li key={index}>
          {key.name}{' '}
          <span className="text-slate-600">({key.tagCode ?? i18n._(KEY_TYPE_LABELS[key.type])})</span>
        </li>
      ))}
    </ul>
  )
}

export function HeldKeychainsTable({ keychains }: { keychains: HeldKeychain[] }) {
  const { t } = useLingui()
  const locale = useLocale()
  if (keychains.length === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>They hold no keychain.</Trans>
      </p>
    )
  return (
    <ReportTable label={t`Keychains held`} headers={[t`Keychain`, t`Keys`, t`Held since`, t`Due back`]}>
      {keychains.map((keychain) => (
        <tr key={keychain.id} className="break-inside-avoid">
          <td className={`${cellClass} font-medium text-slate-900`}>{keychain.name}</td>
          <td className={cellClass}>
            <Keys keychain={keychain} />
          </td>
          <td className={cellClass}>{keychain.since ? formatDateTime(keychain.since, locale) : '—'}</td>
          <td className={cellClass}>
            {keychain.dueBack ? (
              <>
                {formatCalendarDate(keychain.dueBack.toDate, locale)}
                {keychain.dueBack.overdue ? (
                  <span className="ml-2 font-semibold text-red-800">
                    <Trans>overdue</Trans>
                  </span>
                ) : null}
              </>
            ) : (
              '—'
            )}
          </td>
        </tr>
      ))}
    </ReportTable>
  )
}

export function OpenTransfersTable({ transfers }: { transfers: OpenTransfer[] }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  if (transfers.length === 0)
    return (
      <p className="text-sm text-slate-700">
        <Trans>No transfer is open to them.</Trans>
      </p>
    )
  return (
    <ReportTable label={t`Open transfers`} headers={[t`Keychain`, t`Dates`, t`Status`]}>
      {transfers.map((transfer) => (
        <tr key={transfer.id} className="break-inside-avoid">
          <td className={`${cellClass} font-medium text-slate-900`}>{transfer.keychainName}</td>
          <td className={cellClass}>{formatCalendarRange(transfer.fromDate, transfer.toDate, locale)}</td>
          <td className={cellClass}>
            {i18n._(TRANSFER_STATUS_LABELS[transfer.status])}
            {transfer.expired ? (
              <span className="ml-2 font-semibold text-red-800">
                <Trans>overdue</Trans>
              </span>
            ) : null}
          </td>
        </tr>
      ))}
    </ReportTable>
  )
}
