import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { BellRing } from 'lucide-react'
import { useState } from 'react'
import { pushSubscriptionsQuery, useEnablePush } from '../../api/notices.ts'
import { Button } from '../../ui/Button.tsx'
import { PUSH_OFFER_DISMISSED } from './push-offer-check.ts'

/**
 * After a first pickup: "be told on this phone when a keychain is due back?". The browser's question comes only
 * after the tap; "Not now" is remembered on this device. Loaded with the pickup's answer, never on page load.
 */
export default function PushOffer() {
  const { t } = useLingui()
  const subscriptions = useQuery(pushSubscriptionsQuery())
  const enable = useEnablePush()
  const [closed, setClosed] = useState(false)
  if (closed) return null
  const close = () => {
    try {
      localStorage.setItem(PUSH_OFFER_DISMISSED, 'dismissed')
    } catch {
      // Private mode: the offer may come back once.
    }
    setClosed(true)
  }
  if (enable.isSuccess)
    return (
      <p className="text-sm font-medium text-emerald-800" role="status">
        {enable.data === 'granted' ? (
          <Trans>Notifications are on for this device.</Trans>
        ) : (
          <Trans>Notifications stay off: you are told by e-mail.</Trans>
        )}
      </p>
    )
  return (
    <section
      className="flex flex-col gap-2 rounded-lg border border-slate-300 bg-white p-3"
      aria-label={t`Notifications`}
    >
      <p className="flex items-start gap-2 text-sm text-slate-800">
        <BellRing aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-700" />
        <Trans>Be told on this phone when a keychain you hold is due back, even with the app closed?</Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button
          isDisabled={!subscriptions.data || enable.isPending}
          onPress={() => {
            if (subscriptions.data) enable.mutate(subscriptions.data.publicKey)
          }}
        >
          <Trans>Turn on notifications</Trans>
        </Button>
        <Button variant="secondary" onPress={close}>
          <Trans>Not now</Trans>
        </Button>
      </div>
      {enable.isError ? (
        <p role="alert" className="text-sm font-medium text-red-800">
          <Trans>Notifications could not be turned on.</Trans>
        </p>
      ) : null}
    </section>
  )
}
