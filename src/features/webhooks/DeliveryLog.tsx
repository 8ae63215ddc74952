import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import type { WebhookAttempt, WebhookDelivery } from '../../../contract/webhooks.ts'
import { webhookDeliveriesQuery } from '../../api/webhooks.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Badge } from '../../ui/Badge.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import {
  ATTEMPT_ERROR_LABELS,
  DELIVERY_STATUS_LABELS,
  DELIVERY_STATUS_TONES,
  WEBHOOK_EVENT_LABELS,
} from './labels.ts'

function AttemptLine({ attempt }: { attempt: WebhookAttempt }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const error = attempt.error ? ATTEMPT_ERROR_LABELS[attempt.error] : undefined
  const outcome = [
    attempt.statusCode === null ? null : `HTTP ${attempt.statusCode}`,
    error ? i18n._(error) : null,
  ]
    .filter(Boolean)
    .join(' · ')
  const duration = new Intl.NumberFormat(locale, { style: 'unit', unit: 'millisecond' }).format(
    attempt.durationMs,
  )
  const when = formatDateTime(attempt.startedAt, locale)
  const next = attempt.nextAttemptAt ? formatDateTime(attempt.nextAttemptAt, locale) : null
  return (
    <li className="text-xs text-slate-700">
      <Trans>
        Attempt {attempt.attempt}, {when}: {outcome} ({duration})
      </Trans>
      {next ? (
        <>
          {' '}
          <Trans>Next try: {next}</Trans>
        </>
      ) : null}
    </li>
  )
}

function DeliveryRow({ delivery }: { delivery: WebhookDelivery }) {
  const { i18n } = useLingui()
  const locale = useLocale()
  const label = WEBHOOK_EVENT_LABELS[delivery.eventType as keyof typeof WEBHOOK_EVENT_LABELS]
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="font-medium">{label ? i18n._(label) : delivery.eventType}</span>
        <Badge tone={DELIVERY_STATUS_TONES[delivery.status]}>
          {i18n._(DELIVERY_STATUS_LABELS[delivery.status])}
        </Badge>
        <span className="text-xs text-slate-600">{formatDateTime(delivery.createdAt, locale)}</span>
      </div>
      <ol className="ml-4 list-disc">
        {delivery.attempts.map((attempt) => (
          <AttemptLine key={attempt.attempt} attempt={attempt} />
        ))}
      </ol>
    </li>
  )
}

/** The webhook's last deliveries, newest first, each with its attempts (status, error, duration, next try). */
export function DeliveryLog({ organizationId, webhookId }: { organizationId: string; webhookId: string }) {
  const { t } = useLingui()
  const log = useQuery(webhookDeliveriesQuery(organizationId, webhookId))
  if (log.isPending) return <LoadingState label={<Trans>Loading the deliveries…</Trans>} />
  if (log.data === undefined) {
    return (
      <ErrorState
        message={<Trans>The deliveries could not be loaded.</Trans>}
        onRetry={() => void log.refetch()}
      />
    )
  }
  if (log.data.data.length === 0) return <EmptyState title={<Trans>Nothing sent yet.</Trans>} />
  return (
    <ul aria-label={t`Deliveries`} className="divide-y divide-slate-200">
      {log.data.data.map((delivery) => (
        <DeliveryRow key={delivery.id} delivery={delivery} />
      ))}
    </ul>
  )
}
