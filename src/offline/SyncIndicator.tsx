import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { CloudOff, RefreshCw, TriangleAlert, Wifi } from 'lucide-react'
import { formatDateTime } from '../lib/format.ts'
import { useHref, useLocale } from '../lib/use-locale.ts'
import { AppLink } from '../ui/AppLink.tsx'
import { useConnectivity } from './connectivity.ts'
import { SyncProgressLine } from './SyncProgressLine.tsx'
import { useOutbox } from './useOutbox.ts'

/**
 * In the app shell: online or offline (and since when the server last answered), how far the first full sync
 * of the organization has come, when this device last sent a field action, actions waiting to be sent, refused
 * ones; it opens the sync panel.
 */
export function SyncIndicator({ userId }: { userId: string }) {
  const { t } = useLingui()
  const href = useHref()
  const locale = useLocale()
  const { online, lastReachedAt } = useConnectivity()
  const items = useOutbox(userId) ?? []
  const waiting = items.filter((item) => item.status === 'pending').length
  const failed = items.filter((item) => item.status === 'failed').length
  // Shown offline only: building a date formatter costs tens of milliseconds on a phone's first load.
  const last = !online && lastReachedAt ? formatDateTime(lastReachedAt, locale) : null
  const lastSentAt = items.reduce<string | null>(
    (latest, item) => (item.sentAt && (!latest || item.sentAt > latest) ? item.sentAt : latest),
    null,
  )
  const lastSent = lastSentAt ? formatDateTime(lastSentAt, locale) : null
  return (
    <AppLink
      href={href('/app/sync')}
      className={`flex min-h-11 flex-col justify-center gap-0.5 rounded-lg px-3 py-2 text-sm ${
        online ? 'text-slate-700 hover:bg-slate-100' : 'bg-amber-50 text-amber-950 ring-1 ring-amber-300'
      }`}
    >
      {/* Named by what it shows (the name contains the visible text), introduced for screen readers. */}
      <span className="sr-only">{t`Sync status:`} </span>
      <span className="flex items-center gap-2 font-semibold" data-testid="connectivity">
        {online ? <Wifi aria-hidden className="size-4" /> : <CloudOff aria-hidden className="size-4" />}
        {online ? <Trans>Online</Trans> : <Trans>Offline</Trans>}
      </span>
      {last ? (
        <span className="text-xs">
          <Trans>Last updated {last}</Trans>
        </span>
      ) : null}
      <SyncProgressLine />
      {lastSent ? (
        <span className="text-xs" data-testid="last-sync">
          <Trans>Last sync {lastSent}</Trans>
        </span>
      ) : null}
      {waiting > 0 ? (
        <span className="flex items-center gap-2" data-testid="waiting">
          <RefreshCw aria-hidden className="size-4" />
          <Plural value={waiting} one="# waiting to sync" other="# waiting to sync" />
        </span>
      ) : null}
      {failed > 0 ? (
        <span className="flex items-center gap-2 font-medium text-red-800" data-testid="failed">
          <TriangleAlert aria-hidden className="size-4" />
          <Plural value={failed} one="# refused" other="# refused" />
        </span>
      ) : null}
    </AppLink>
  )
}
