import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Handshake } from 'lucide-react'
import { useState } from 'react'
import type { Handover } from '../../../contract/handover.ts'
import type { Person } from '../../../contract/person.ts'
import { handoversQuery } from '../../api/handovers.ts'
import { formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useHref, useLocale } from '../../lib/use-locale.ts'
import type { LocalRefusal } from '../../offline/handover.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { buttonClass } from '../../ui/Button.tsx'
import { PageHeader } from '../../ui/Card.tsx'
import { LoadingState } from '../../ui/States.tsx'
import { type HandoverActions, offlineHandoverActions } from './actions.ts'
import { type HandoverState, HandoverStatusBadge } from './HandoverStatus.tsx'
import { localHandoversQuery } from './local-queries.ts'
import { REFUSAL_TEXTS } from './refusals.ts'

type Row = {
  id: string
  keychain: string
  giver: Person | null
  receiver: Person | null
  at: string
  state: HandoverState
  reason: LocalRefusal | null
}

const rowOf = (handover: Handover): Row => ({
  id: handover.id,
  keychain: handover.keychain.name,
  giver: handover.giver,
  receiver: handover.receiver,
  at: handover.acceptedAt,
  state: handover.status,
  reason: handover.reason,
})

/**
 * `/app/handovers`: the handovers the server has (managers: every one of the organization; anyone else: the ones
 * they gave or received), refused ones with what to do, and the ones this phone has not sent yet.
 */
export function HandoverListScreen({
  userId,
  organizationId,
  everyone,
  actions = offlineHandoverActions,
}: {
  userId: string
  organizationId: string
  /** The caller sees the whole organization's handovers (a manager). */
  everyone: boolean
  actions?: HandoverActions
}) {
  const { t, i18n } = useLingui()
  const locale = useLocale()
  const href = useHref()
  const [refusedOnly, setRefusedOnly] = useState(false)
  const remote = useQuery(handoversQuery(organizationId, refusedOnly ? 'REFUSED' : undefined))
  const local = useQuery(localHandoversQuery(actions, userId, organizationId))
  const recorded = remote.data?.data ?? []
  const known = new Set(recorded.map((handover) => handover.id))
  // What this phone keeps and the server has not answered yet (or could not be asked: offline).
  const waiting: Row[] = (local.data ?? [])
    .filter((handover) => !known.has(handover.offerId) && (refusedOnly ? handover.state === 'REFUSED' : true))
    .map((handover) => ({
      id: handover.offerId,
      keychain: handover.keychain.name,
      giver: handover.giver,
      receiver: handover.receiver,
      at: handover.acceptedAt,
      state: handover.state,
      reason: handover.reason,
    }))
  const rows = [...waiting, ...recorded.map(rowOf)]
  const loading = remote.isPending && local.isPending

  return (
    <>
      <PageHeader title={<Trans>Handovers</Trans>}>
        <AppLink href={href('/app/handover')} className={buttonClass('primary')}>
          <Handshake aria-hidden className="size-4" />
          <Trans>Receive a keychain</Trans>
        </AppLink>
      </PageHeader>
      <p className="mb-4 text-slate-700">
        {everyone ? (
          <Trans>Every keychain handed from phone to phone in the organization.</Trans>
        ) : (
          <Trans>The keychains you handed over or received from phone to phone.</Trans>
        )}
      </p>
      <label className="mb-4 flex min-h-11 items-center gap-2 font-medium text-slate-800">
        <input
          type="checkbox"
          className="size-5"
          checked={refusedOnly}
          onChange={(event) => setRefusedOnly(event.target.checked)}
        />
        <Trans>Refused only</Trans>
      </label>
      {remote.isError ? (
        <p role="status" className="mb-4 rounded-lg bg-amber-50 p-3 text-amber-950">
          <Trans>The server could not be reached: only the handovers kept on this phone are shown.</Trans>
        </p>
      ) : null}
      {loading ? (
        <LoadingState label={<Trans>Loading the handovers…</Trans>} />
      ) : rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-700">
          {refusedOnly ? <Trans>No refused handover.</Trans> : <Trans>No handover yet.</Trans>}
        </p>
      ) : (
        <ul aria-label={t`Handovers`} className="flex flex-col gap-3">
          {rows.map((row) => {
            const giver = row.giver ? personName(row.giver) : t`A former member`
            const receiver = row.receiver ? personName(row.receiver) : t`A former member`
            return (
              <li
                key={row.id}
                data-handover-state={row.state}
                className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4"
              >
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <AppLink href={href(`/app/handovers/${row.id}`)}>{row.keychain}</AppLink>
                  <HandoverStatusBadge state={row.state} />
                </div>
                <p className="flex flex-wrap items-center gap-1 text-slate-800">
                  {giver} <ArrowRight aria-label={t`to`} className="size-4" /> {receiver}
                </p>
                <p className="text-sm text-slate-600">{formatDateTime(row.at, locale)}</p>
                {row.state === 'REFUSED' && row.reason ? (
                  <p className="text-sm text-red-900" data-refusal={row.reason}>
                    {i18n._(REFUSAL_TEXTS[row.reason].what)} {i18n._(REFUSAL_TEXTS[row.reason].todo)}
                  </p>
                ) : null}
              </li>
            )
          })}
        </ul>
      )}
    </>
  )
}
