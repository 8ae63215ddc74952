import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { FileDown, FileJson } from 'lucide-react'
import type { ReactNode } from 'react'
import type { Person } from '../../../contract/person.ts'
import { handoverQuery, receiptJsonUrl, receiptPdfUrl } from '../../api/handovers.ts'
import { refusedWith } from '../../lib/api.ts'
import { formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { ErrorState, LoadingState, NotFoundState } from '../../ui/States.tsx'
import { type HandoverActions, offlineHandoverActions } from './actions.ts'
import { type HandoverState, HandoverStatusBadge } from './HandoverStatus.tsx'
import { localHandoverQuery } from './local-queries.ts'
import { RefusalNotice } from './RefusalNotice.tsx'

/**
 * `/app/handovers/$id`: one handover, as the server recorded it when it can be reached, else as this phone keeps
 * it (offline, or not sent yet): the keychain, both people, the times, where it stands and what to do if refused.
 */
export function HandoverReceiptScreen({
  organizationId,
  id,
  actions = offlineHandoverActions,
}: {
  organizationId: string
  id: string
  actions?: HandoverActions
}) {
  const locale = useLocale()
  const href = useHref()
  const local = useQuery(localHandoverQuery(actions, id))
  const remote = useQuery(handoverQuery(organizationId, id))
  const kept = local.data ?? null
  const recorded = remote.data ?? null
  if (!kept && !recorded) {
    if (local.isPending || remote.isPending)
      return <LoadingState label={<Trans>Loading the handover…</Trans>} />
    if (refusedWith(remote.error, 404) || !remote.error) return <NotFoundState />
    return (
      <ErrorState
        message={<Trans>The handover could not be loaded.</Trans>}
        onRetry={() => void remote.refetch()}
        error={remote.error}
      />
    )
  }
  const keychain = recorded?.keychain ?? kept?.keychain ?? { id: '', name: '' }
  const giver = recorded?.giver ?? kept?.giver ?? null
  const receiver = recorded?.receiver ?? kept?.receiver ?? null
  const state: HandoverState = recorded?.status ?? kept?.state ?? 'queued'
  const reason = recorded?.reason ?? kept?.reason ?? null
  const offeredAt = recorded?.offeredAt ?? kept?.offeredAt ?? ''
  const acceptedAt = recorded?.acceptedAt ?? kept?.acceptedAt ?? ''
  const name = keychain.name
  const who = (person: Person | null) => (person ? personName(person) : <Trans>A former member</Trans>)
  const time = (value: string) => formatDateTime(value, locale)

  return (
    <>
      <PageHeader title={<Trans>Handover of {name}</Trans>}>
        <HandoverStatusBadge state={state} />
      </PageHeader>
      <Card className="flex max-w-2xl flex-col gap-5">
        <StateLine state={state} receiver={receiver} keychain={name} />
        {state === 'REFUSED' && reason ? <RefusalNotice reason={reason} alert={false} /> : null}
        <dl className="grid gap-4 sm:grid-cols-2">
          <Field term={<Trans>Keychain</Trans>}>
            {keychain.id ? <AppLink href={href(`/app/keychains/${keychain.id}`)}>{name}</AppLink> : name}
          </Field>
          <Field term={<Trans>Given by</Trans>} testId="receipt-giver">
            {who(giver)}
          </Field>
          <Field term={<Trans>Received by</Trans>} testId="receipt-receiver">
            {who(receiver)}
          </Field>
          <Field term={<Trans>Offered</Trans>}>{offeredAt ? time(offeredAt) : '—'}</Field>
          <Field term={<Trans>Accepted</Trans>}>{acceptedAt ? time(acceptedAt) : '—'}</Field>
          <Field term={<Trans>Reached the server</Trans>}>
            {recorded ? time(recorded.receivedAt) : <Trans>Not yet</Trans>}
          </Field>
        </dl>
        {recorded?.status === 'APPLIED' ? (
          <div className="flex flex-wrap gap-2">
            <a href={receiptPdfUrl(id)} className={buttonClass('secondary')} download>
              <FileDown aria-hidden className="size-4" />
              <Trans>Receipt (PDF)</Trans>
            </a>
            <a href={receiptJsonUrl(id)} className={buttonClass('secondary')} download>
              <FileJson aria-hidden className="size-4" />
              <Trans>Signed receipt (JSON)</Trans>
            </a>
          </div>
        ) : null}
        <AppLink href={href('/app/handovers')}>
          <Trans>All handovers</Trans>
        </AppLink>
      </Card>
    </>
  )
}

function StateLine({
  state,
  receiver,
  keychain,
}: {
  state: HandoverState
  receiver: Person | null
  keychain: string
}) {
  const name = receiver ? personName(receiver) : ''
  if (state === 'APPLIED')
    return (
      <p className="font-semibold text-emerald-900">
        <Trans>
          Recorded by the server: {name} holds {keychain}.
        </Trans>
      </p>
    )
  if (state === 'REFUSED')
    return (
      <p className="font-semibold text-red-900">
        <Trans>The server refused this handover: the keychain did not change hands.</Trans>
      </p>
    )
  return (
    <p className="font-semibold text-amber-900">
      <Trans>
        Kept on this phone, signed by both: {name} holds {keychain}. It is sent when the network is back.
      </Trans>
    </p>
  )
}

function Field({ term, testId, children }: { term: ReactNode; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-sm font-medium text-slate-700">{term}</dt>
      <dd className="font-semibold text-slate-900" data-testid={testId}>
        {children}
      </dd>
    </div>
  )
}
