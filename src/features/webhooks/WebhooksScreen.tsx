import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { webhooksQuery } from '../../api/webhooks.ts'
import { PageHeader } from '../../ui/Card.tsx'
import { EmptyState, ErrorState, LoadingState } from '../../ui/States.tsx'
import { NewWebhookForm } from './NewWebhookForm.tsx'
import { SecretNotice } from './SecretNotice.tsx'
import { WebhookCard } from './WebhookCard.tsx'

/** `/app/webhooks` (ADMIN): where the organization's events are posted, signed, with each delivery's log. */
export function WebhooksScreen({ organizationId }: { organizationId: string }) {
  const list = useQuery(webhooksQuery(organizationId))
  const [secret, setSecret] = useState<string | null>(null)
  return (
    <>
      <PageHeader title={<Trans>Webhooks</Trans>} />
      <p className="mb-4 max-w-3xl text-sm text-slate-700">
        <Trans>
          Trousseau posts the events you choose to your address as signed JSON, and tries again for about five
          hours while the address does not answer with a success.
        </Trans>
      </p>
      {secret ? <SecretNotice secret={secret} onDone={() => setSecret(null)} /> : null}
      <NewWebhookForm organizationId={organizationId} onCreated={setSecret} />
      {list.isPending ? (
        <LoadingState label={<Trans>Loading the webhooks…</Trans>} />
      ) : list.data === undefined ? (
        <ErrorState
          message={<Trans>The webhooks could not be loaded.</Trans>}
          onRetry={() => void list.refetch()}
        />
      ) : list.data.data.length === 0 ? (
        <EmptyState title={<Trans>No webhook yet.</Trans>} />
      ) : (
        list.data.data.map((webhook) => (
          <WebhookCard
            key={webhook.id}
            organizationId={organizationId}
            webhook={webhook}
            onSecret={setSecret}
          />
        ))
      )}
    </>
  )
}
