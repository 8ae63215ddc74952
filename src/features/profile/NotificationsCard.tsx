import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import {
  NOTICE_CHANNELS,
  type NoticeChannel,
  PERSONAL_NOTICE_KINDS,
  type PersonalNoticeKind,
} from '../../../contract/notices.ts'
import {
  noticeSettingsQuery,
  pushSubscriptionsQuery,
  thisDeviceSubscribedQuery,
  useEnablePush,
  useRemovePushSubscription,
  useUpdateNoticeSettings,
} from '../../api/notices.ts'
import { formatDate } from '../../lib/format.ts'
import { type PushSupport, pushSupport } from '../../lib/push-support.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { SelectField } from '../../ui/SelectField.tsx'
import { ErrorState } from '../../ui/States.tsx'

/**
 * Notifications: push on this device (asked for after a tap, never on load), the devices that receive them, and
 * for each kind of notice push, e-mail, both or neither. Loaded lazily by the profile screen.
 */
export default function NotificationsCard({ support = pushSupport() }: { support?: PushSupport }) {
  return (
    <Card className="mt-6 flex max-w-2xl flex-col gap-4">
      <h2 className="text-base font-semibold">
        <Trans>Notifications</Trans>
      </h2>
      <ThisDevice support={support} />
      <ChannelSettings />
    </Card>
  )
}

function ThisDevice({ support }: { support: PushSupport }) {
  const { t } = useLingui()
  const locale = useLocale()
  const failed = useFailureToast()
  const subscriptions = useQuery(pushSubscriptionsQuery())
  const enable = useEnablePush()
  const remove = useRemovePushSubscription()
  const [permission, setPermission] = useState(() =>
    support === 'supported' ? Notification.permission : 'default',
  )
  const subscribedHere = useQuery(thisDeviceSubscribedQuery(support))
  const devices = subscriptions.data?.data ?? []
  return (
    <section className="flex flex-col gap-3" aria-label={t`This device`}>
      {support === 'install-first' ? (
        <p className="text-sm text-slate-700">
          <Trans>
            On an iPhone or iPad, notifications reach the app installed on the home screen only: in Safari,
            tap Share, then “Add to Home Screen”, and open Trousseau from there.
          </Trans>
        </p>
      ) : support === 'unsupported' ? (
        <p className="text-sm text-slate-700">
          <Trans>This browser cannot receive notifications; you are told by e-mail.</Trans>
        </p>
      ) : permission === 'denied' ? (
        <p className="text-sm text-slate-700">
          <Trans>Notifications are blocked for Trousseau in this browser’s settings.</Trans>
        </p>
      ) : permission === 'granted' && subscribedHere.data === true ? (
        <p className="text-sm text-slate-700">
          <Trans>Notifications are on for this device.</Trans>
        </p>
      ) : (
        <div>
          <Button
            isDisabled={enable.isPending || !subscriptions.data}
            onPress={() => {
              if (!subscriptions.data) return
              enable.mutate(subscriptions.data.publicKey, {
                onSuccess: (given) => {
                  setPermission(given)
                  void subscribedHere.refetch()
                },
                onError: (error: unknown) => void failed(t`Notifications could not be turned on.`, error),
              })
            }}
          >
            <Trans>Turn on notifications on this device</Trans>
          </Button>
        </div>
      )}
      {subscriptions.isError ? (
        <ErrorState
          message={<Trans>The devices could not be loaded.</Trans>}
          onRetry={() => void subscriptions.refetch()}
        />
      ) : devices.length > 0 ? (
        <ul
          className="flex flex-col divide-y divide-slate-200"
          aria-label={t`Devices receiving notifications`}
        >
          {devices.map((device) => (
            <li key={device.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
              <span>
                <span className="font-medium">{device.name}</span>{' '}
                <span className="text-slate-600">
                  <Trans>
                    ({device.service}, last seen {formatDate(device.seenAt, locale)})
                  </Trans>
                </span>
              </span>
              <Button
                variant="secondary"
                isDisabled={remove.isPending}
                onPress={() =>
                  remove.mutate(device.id, {
                    onError: (error: unknown) => void failed(t`The device could not be removed.`, error),
                  })
                }
              >
                <Trans>Remove</Trans>
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  )
}

function ChannelSettings() {
  const { t } = useLingui()
  const failed = useFailureToast()
  const settings = useQuery(noticeSettingsQuery())
  const update = useUpdateNoticeSettings()
  const kinds: Record<PersonalNoticeKind, string> = {
    transfer_authorized: t`A keychain lent to me`,
    reminder: t`Pickups and returns due (reminders, overdue)`,
    extension_answered: t`My extension requests answered`,
    lent_overdue: t`Keychains I lent out not back (managers)`,
    found_report: t`Found-tag reports (staff)`,
    stocktake_due: t`Stocktakes due`,
    handover: t`Handovers from phone to phone`,
    member_left: t`People who left with keys (admins)`,
  }
  const channels: Record<NoticeChannel, string> = {
    BOTH: t`Notification and e-mail`,
    PUSH: t`Notification only`,
    EMAIL: t`E-mail only`,
    NONE: t`Neither`,
  }
  if (settings.isError)
    return (
      <ErrorState
        message={<Trans>Your notification settings could not be loaded.</Trans>}
        onRetry={() => void settings.refetch()}
      />
    )
  if (!settings.data) return null
  const digest = update.isPending ? (update.variables.digest ?? settings.data.digest) : settings.data.digest
  const shown = update.isPending
    ? { ...settings.data.channels, ...update.variables.channels }
    : settings.data.channels
  return (
    <section className="grid gap-4 sm:grid-cols-2" aria-label={t`How you are told`}>
      <label className="flex items-start gap-3 sm:col-span-2">
        <input
          type="checkbox"
          name="digest"
          className="mt-1 size-4"
          checked={digest}
          disabled={update.isPending}
          onChange={(event) =>
            update.mutate(
              { digest: event.currentTarget.checked },
              { onError: (error: unknown) => void failed(t`Your choice could not be saved.`, error) },
            )
          }
        />
        <span>
          <span className="block font-medium">
            <Trans>One e-mail a day</Trans>
          </span>
          <span className="block text-sm text-slate-600">
            <Trans>
              The notices sent by e-mail come together each morning at 8, instead of one mail each; reminders
              still come on their day.
            </Trans>
          </span>
        </span>
      </label>
      {PERSONAL_NOTICE_KINDS.map((kind) => (
        <SelectField
          key={kind}
          name={kind}
          label={kinds[kind]}
          value={shown[kind] ?? 'BOTH'}
          options={NOTICE_CHANNELS.map((channel) => ({ value: channel, label: channels[channel] }))}
          onChange={(channel) =>
            update.mutate(
              { channels: { [kind]: channel as NoticeChannel } },
              { onError: (error: unknown) => void failed(t`Your choice could not be saved.`, error) },
            )
          }
        />
      ))}
    </section>
  )
}
