import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import type { Device } from '../../../contract/devices.ts'
import { devicesQuery, useRevokeDevice } from '../../api/devices.ts'
import { formatDate } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Badge } from '../../ui/Badge.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { ErrorState } from '../../ui/States.tsx'

/** This device's key id for the user (made if it has none yet), from the offline layer, loaded with the card. */
const deviceOfThisPhone = async (userId: string) =>
  (await (await import('../../offline/handover.ts')).ensureDeviceKey(userId)).deviceId

/**
 * My devices: each phone or browser I signed in on signs handovers with its own key. Revoking one (a lost phone)
 * stops it signing. Loaded lazily by the profile screen.
 */
export default function DevicesCard({
  userId,
  thisDevice = deviceOfThisPhone,
}: {
  userId: string
  thisDevice?: (userId: string) => Promise<string>
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const devices = useQuery(devicesQuery())
  const current = useQuery({
    queryKey: ['this-device', userId],
    queryFn: () => thisDevice(userId).catch(() => null),
    staleTime: Number.POSITIVE_INFINITY,
  })
  const revoke = useRevokeDevice()
  const [asked, setAsked] = useState<Device | null>(null)
  return (
    <Card className="mt-6 flex max-w-2xl flex-col gap-4">
      <h2 className="text-base font-semibold">
        <Trans>My devices</Trans>
      </h2>
      <p className="text-sm text-slate-600">
        <Trans>
          Each phone or browser you use signs the keychains you hand over or receive with its own key. Revoke
          a device you lost: it can no longer sign a handover.
        </Trans>
      </p>
      {devices.isError ? (
        <ErrorState
          message={<Trans>The devices could not be loaded.</Trans>}
          onRetry={() => void devices.refetch()}
        />
      ) : devices.data ? (
        <DeviceList
          devices={devices.data.data}
          current={current.data ?? null}
          isRevoking={revoke.isPending}
          onRevoke={setAsked}
        />
      ) : null}
      <ConfirmDialog
        isOpen={asked !== null}
        onOpenChange={(open) => (open ? undefined : setAsked(null))}
        title={t`Revoke this device?`}
        confirmLabel={<Trans>Revoke</Trans>}
        isPending={revoke.isPending}
        onConfirm={() => {
          if (asked)
            revoke.mutate(asked.id, {
              onError: (error: unknown) => void failed(t`The device could not be revoked.`, error),
            })
          setAsked(null)
        }}
      >
        <Trans>
          It can no longer sign handovers, from now on. Handovers it signed before stay valid. This cannot be
          undone: signing in again on it makes a new key.
        </Trans>
      </ConfirmDialog>
    </Card>
  )
}

function DeviceList({
  devices,
  current,
  isRevoking,
  onRevoke,
}: {
  devices: Device[]
  current: string | null
  isRevoking: boolean
  onRevoke: (device: Device) => void
}) {
  const { t } = useLingui()
  const locale = useLocale()
  if (devices.length === 0)
    return (
      <p className="text-sm text-slate-600">
        <Trans>No device registered yet: each registers itself the first time it is online.</Trans>
      </p>
    )
  const now = Date.now()
  return (
    <ul className="flex flex-col divide-y divide-slate-200" aria-label={t`My devices`}>
      {devices.map((device) => {
        const registered = formatDate(device.registeredAt, locale)
        const expires = formatDate(device.expiresAt, locale)
        const revoked = device.revokedAt ? formatDate(device.revokedAt, locale) : null
        const expired = Date.parse(device.expiresAt) <= now
        return (
          <li
            key={device.id}
            data-device={device.id}
            className="flex flex-wrap items-start justify-between gap-2 py-2"
          >
            <div className="flex flex-col gap-0.5 text-sm">
              <span className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                {device.name}
                {device.id === current ? (
                  <Badge tone="brand">
                    <Trans>This device</Trans>
                  </Badge>
                ) : null}
                {revoked ? (
                  <Badge tone="danger">
                    <Trans>Revoked</Trans>
                  </Badge>
                ) : null}
              </span>
              <span className="text-slate-600">
                <Trans>Fingerprint</Trans>{' '}
                <code className="font-mono text-slate-800">{device.fingerprint}</code>
              </span>
              <span className="text-slate-600">
                <Trans>Registered {registered}</Trans>
                {' · '}
                {revoked ? (
                  <Trans>revoked {revoked}</Trans>
                ) : expired ? (
                  <Trans>expired {expires}</Trans>
                ) : (
                  <Trans>expires {expires}</Trans>
                )}
              </span>
            </div>
            {revoked ? null : (
              <Button variant="secondary" isDisabled={isRevoking} onPress={() => onRevoke(device)}>
                <Trans>Revoke</Trans>
              </Button>
            )}
          </li>
        )
      })}
    </ul>
  )
}
