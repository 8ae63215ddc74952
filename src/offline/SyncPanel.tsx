import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { RefreshCw } from 'lucide-react'
import { ErrorCode } from '../../contract/errors.ts'
import { ApiError } from '../lib/api.ts'
import { formatDateTime, formatNumber } from '../lib/format.ts'
import { refusalMessage } from '../lib/refusal-message.ts'
import { useLocale } from '../lib/use-locale.ts'
import { Badge } from '../ui/Badge.tsx'
import { Button } from '../ui/Button.tsx'
import { Card, PageHeader } from '../ui/Card.tsx'
import { EmptyState } from '../ui/States.tsx'
import { useConnectivity } from './connectivity.ts'
import type { OutboxItem } from './db.ts'
import { useStorageState } from './storage.ts'
import { useOutbox } from './useOutbox.ts'

// The outbox (Dexie) loads with the list it shows, after the first paint: only its actions are needed here.
const retryItem = async (id: string) => (await import('./outbox.ts')).retryItem(id)
const discardItem = async (id: string) => (await import('./outbox.ts')).discardItem(id)

const KIND_LABELS: Record<OutboxItem['kind'], MessageDescriptor> = {
  scan: msg`Scan`,
  pickup: msg`Pickup or return`,
  extension: msg`Request for more time`,
  pairCreate: msg`New keychain with a scanned tag`,
  pairAttach: msg`Scanned tag added to a keychain`,
  hookScan: msg`Keychain put back on a hook`,
  stocktakeScan: msg`Stocktake scan`,
  handover: msg`Keychain handed over`,
}

function ItemRow({ item, onChanged }: { item: OutboxItem; onChanged: () => void }) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const when = formatDateTime(item.clientTime, locale)
  // Given up after repeated server errors (not a refusal of the action itself): worth retrying later.
  const serverFailed = item.status === 'failed' && (item.error?.status ?? 0) >= 500
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-status={item.status}>
      <div className="min-w-48 flex-1">
        <p className="font-semibold text-slate-900">
          {i18n._(KIND_LABELS[item.kind])} · {item.label}
        </p>
        <p className="text-sm text-slate-700">{when}</p>
        {item.error ? (
          <p className="text-sm font-medium text-red-800">
            {serverFailed
              ? t`The server failed on it several times in a row (${item.error.status}). Retry later, or discard it.`
              : item.error.code === ErrorCode.tagTaken
                ? t`This tag was put on a key meanwhile, perhaps on another device: nothing was made. Discard this, or retry once the tag is free again.`
                : refusalMessage(
                    new ApiError(item.error.status, item.error.code, item.error.message),
                    t`The server refused it (${item.error.status} ${item.error.code}).`,
                  )}
          </p>
        ) : null}
      </div>
      {item.status === 'pending' ? (
        <Badge tone="warning">
          <Trans>Waiting to sync</Trans>
        </Badge>
      ) : item.status === 'sent' ? (
        <Badge tone="success">
          <Trans>Sent</Trans>
        </Badge>
      ) : (
        <>
          <Badge tone="danger">{serverFailed ? <Trans>Failed</Trans> : <Trans>Refused</Trans>}</Badge>
          <Button variant="secondary" onPress={() => void retryItem(item.id).then(onChanged)}>
            <Trans>Retry</Trans>
          </Button>
          <Button variant="ghost" onPress={() => void discardItem(item.id)}>
            <Trans>Discard</Trans>
          </Button>
        </>
      )}
    </li>
  )
}

function megabytes(bytes: number, locale: 'fr' | 'en') {
  return formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10, locale)
}

/**
 * `/app/sync`: what this device keeps for the server (scans, pickups and returns in the order they were made,
 * with the server's reason for any it refused) and whether the browser promised to keep it.
 */
export function SyncPanel({ userId, onSendNow }: { userId: string; onSendNow: () => void }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { online, lastReachedAt } = useConnectivity()
  const items = useOutbox(userId)
  const storage = useStorageState()
  const waiting = items?.filter((item) => item.status === 'pending').length ?? 0
  const last = lastReachedAt ? formatDateTime(lastReachedAt, locale) : t`never`
  return (
    <>
      <PageHeader title={<Trans>Sync</Trans>}>
        <Button onPress={onSendNow} isDisabled={waiting === 0}>
          <RefreshCw aria-hidden className="size-4" />
          <Trans>Send now</Trans>
        </Button>
      </PageHeader>
      <Card className="mb-6 grid gap-2 text-slate-800 sm:grid-cols-2">
        <p>
          {online ? <Trans>Online.</Trans> : <Trans>Offline.</Trans>}{' '}
          <Trans>The server last answered {last}.</Trans>
        </p>
        <p data-testid="storage">
          {storage.persisted === true ? (
            <Trans>This browser keeps the app's data even when space runs low.</Trans>
          ) : storage.persisted === false ? (
            <Trans>This browser may clear the app's data when space runs low: send waiting work soon.</Trans>
          ) : (
            <Trans>This browser does not say whether it keeps the app's data.</Trans>
          )}{' '}
          {storage.usage !== null ? <Trans>{megabytes(storage.usage, locale)} MB stored.</Trans> : null}
        </p>
      </Card>
      {items && items.length === 0 ? (
        <EmptyState title={<Trans>Nothing waits to be sent.</Trans>} />
      ) : (
        <ul
          aria-label={t`Outbox`}
          className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm"
        >
          {(items ?? []).map((item) => (
            <ItemRow key={item.id} item={item} onChanged={onSendNow} />
          ))}
        </ul>
      )}
    </>
  )
}
