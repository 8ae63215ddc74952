import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useState } from 'react'
import type { WebhookEndpoint } from '../../../contract/webhooks.ts'
import {
  useDeleteWebhook,
  useRotateWebhookSecret,
  useSendTestWebhook,
  useUpdateWebhook,
} from '../../api/webhooks.ts'
import { Badge } from '../../ui/Badge.tsx'
import { Button } from '../../ui/Button.tsx'
import { Card } from '../../ui/Card.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useWebhookFailureToast } from './failure.ts'
import { WEBHOOK_EVENT_LABELS } from './labels.ts'

/** The log loads when first shown, not with the screen. */
const DeliveryLog = lazy(() =>
  import('./DeliveryLog.tsx').then((module) => ({ default: module.DeliveryLog })),
)

/** One webhook: its address and events, and what an admin does with it; its log opens on demand. */
export function WebhookCard({
  organizationId,
  webhook,
  onSecret,
}: {
  organizationId: string
  webhook: WebhookEndpoint
  onSecret: (secret: string) => void
}) {
  const { t, i18n } = useLingui()
  const failed = useWebhookFailureToast()
  const update = useUpdateWebhook(organizationId)
  const remove = useDeleteWebhook(organizationId)
  const rotate = useRotateWebhookSecret(organizationId)
  const test = useSendTestWebhook(organizationId)
  const [showLog, setShowLog] = useState(false)
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null)

  const sendTest = () =>
    test.mutate(webhook.id, {
      onSuccess: () => {
        setShowLog(true)
        toasts.add({ severity: 'success', summary: t`A test event is on its way.`, life: 4000 })
      },
      onError: (error) => failed(t`The test could not be sent.`, error, 'test'),
    })
  const toggle = () =>
    update.mutate(
      { id: webhook.id, enabled: !webhook.enabled },
      { onError: (error) => failed(t`The webhook could not be changed.`, error) },
    )

  return (
    <Card className="mb-4 max-w-3xl">
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h2 className="font-mono text-sm break-all">{webhook.url}</h2>
        <Badge tone={webhook.enabled ? 'success' : 'neutral'}>
          {webhook.enabled ? <Trans>Enabled</Trans> : <Trans>Disabled</Trans>}
        </Badge>
      </div>
      {webhook.description ? <p className="mb-2 text-sm text-slate-700">{webhook.description}</p> : null}
      <p className="mb-2 text-sm text-slate-700">
        {webhook.eventTypes.map((type) => i18n._(WEBHOOK_EVENT_LABELS[type])).join(', ')}
      </p>
      <p className="mb-3 text-xs text-slate-600">
        <Trans>Signing secret ending {webhook.secretHint}</Trans>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onPress={sendTest} isDisabled={test.isPending}>
          <Trans>Send a test</Trans>
        </Button>
        <Button variant="secondary" onPress={toggle} isDisabled={update.isPending}>
          {webhook.enabled ? <Trans>Disable</Trans> : <Trans>Enable</Trans>}
        </Button>
        <Button variant="secondary" onPress={() => setConfirm('rotate')}>
          <Trans>New secret</Trans>
        </Button>
        <Button variant="ghost" onPress={() => setShowLog((shown) => !shown)} aria-expanded={showLog}>
          {showLog ? <Trans>Hide the deliveries</Trans> : <Trans>Show the deliveries</Trans>}
        </Button>
        <Button variant="danger" onPress={() => setConfirm('delete')}>
          <Trans>Delete</Trans>
        </Button>
      </div>
      {showLog ? (
        <div className="mt-4 border-t border-slate-200 pt-3">
          <Suspense fallback={null}>
            <DeliveryLog organizationId={organizationId} webhookId={webhook.id} />
          </Suspense>
        </div>
      ) : null}
      <ConfirmDialog
        isOpen={confirm === 'rotate'}
        onOpenChange={(open) => setConfirm(open ? 'rotate' : null)}
        title={<Trans>Make a new signing secret?</Trans>}
        confirmLabel={<Trans>Make a new secret</Trans>}
        isPending={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(webhook.id, {
            onSuccess: (answer) => {
              setConfirm(null)
              onSecret(answer.secret)
            },
            onError: (error) => failed(t`The secret could not be changed.`, error),
          })
        }
      >
        <Trans>The current secret stops signing at once: give the new one to the receiver.</Trans>
      </ConfirmDialog>
      <ConfirmDialog
        isOpen={confirm === 'delete'}
        onOpenChange={(open) => setConfirm(open ? 'delete' : null)}
        title={<Trans>Delete this webhook?</Trans>}
        confirmLabel={<Trans>Delete</Trans>}
        isPending={remove.isPending}
        onConfirm={() =>
          remove.mutate(webhook.id, {
            onSuccess: () => setConfirm(null),
            onError: (error) => failed(t`The webhook could not be deleted.`, error),
          })
        }
      >
        <Trans>Its delivery log goes with it, and events waiting to be sent are dropped.</Trans>
      </ConfirmDialog>
    </Card>
  )
}
