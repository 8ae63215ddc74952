import { Trans } from '@lingui/react/macro'
import { CloudOff } from 'lucide-react'
import { formatDateTime } from '../lib/format.ts'
import { useLocale } from '../lib/use-locale.ts'
import { useConnectivity } from './connectivity.ts'

/** Above every screen while offline: what is shown comes from this device, as of when. */
export function OfflineBanner() {
  const locale = useLocale()
  const { online, lastReachedAt } = useConnectivity()
  if (online) return null
  const last = lastReachedAt ? formatDateTime(lastReachedAt, locale) : null
  return (
    <p
      role="status"
      data-testid="offline-banner"
      className="mb-4 flex items-center gap-2 rounded-lg bg-amber-50 p-3 font-medium text-amber-950 ring-1 ring-amber-300"
    >
      <CloudOff aria-hidden className="size-5 shrink-0" />
      {last ? (
        <Trans>Offline, last updated {last}: field work is saved on this device and sent later.</Trans>
      ) : (
        <Trans>Offline: field work is saved on this device and sent later.</Trans>
      )}
    </p>
  )
}

/** On office screens (orders, plans, cart, users), which do not work offline. */
export function NeedsConnection() {
  const { online } = useConnectivity()
  if (online) return null
  return (
    <p role="alert" className="mb-4 rounded-lg bg-red-50 p-3 font-medium text-red-950 ring-1 ring-red-200">
      <Trans>This screen needs a connection: changes here cannot be saved offline.</Trans>
    </p>
  )
}
