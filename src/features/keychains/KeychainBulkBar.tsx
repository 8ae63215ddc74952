import { msg, plural } from '@lingui/core/macro'
import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { ArrowRightLeft, Download, Trash2, UserRound, X } from 'lucide-react'
import { useState } from 'react'
import {
  BULK_KEYCHAINS_MAX,
  type BulkFilter,
  type BulkResult,
  type BulkTransfer,
  EXPORT_IDS_MAX,
} from '../../../contract/keychain-bulk.ts'
import type { Member } from '../../../contract/organizations.ts'
import { useBulkCustodian, useBulkDeletion, useBulkTransfers } from '../../api/keychain-bulk.ts'
import { keychainExportHref } from '../../api/keychain-export.ts'
import { useAbility } from '../../lib/ability.tsx'
import { ApiError, refusedWith } from '../../lib/api.ts'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { BulkTransferDialog } from './BulkTransferDialog.tsx'
import { custodianOptions } from './custodians.ts'

/** The rows ticked, or all keychains matching the list's filter (resolved by the server). */
export type KeychainSelection = { ids: string[] } | { filter: BulkFilter }

const NOBODY = 'nobody'

/** The export of a selection of the list: the rows ticked, or all matching its filter. */
function keychainExportHrefOf(
  selection: { ids: string[] } | { filter: { q?: string | undefined; custodianId?: string | undefined } },
): string {
  const query = new URLSearchParams()
  if ('ids' in selection) query.set('ids', selection.ids.join(','))
  else {
    if (selection.filter.q) query.set('q', selection.filter.q)
    if (selection.filter.custodianId) query.set('custodianId', selection.filter.custodianId)
  }
  const search = query.toString()
  return search ? `${keychainExportHref}?${search}` : keychainExportHref
}

/** Why a bulk action failed, in the reader's words (the server's messages are in English). */
function bulkProblem(error: unknown) {
  if (refusedWith(error, 402, 'transfer_allowance_exceeded') && error instanceof ApiError) {
    const allowance = error.details?.allowance ?? 0
    const left = Math.max(0, allowance - (error.details?.used ?? 0))
    return msg`Your plan allows ${allowance} transfers a month and ${left} are left this month, fewer than selected: nothing was authorized.`
  }
  if (refusedWith(error, 402)) return msg`Transfers need an active subscription: choose a plan first.`
  if (refusedWith(error, 400, 'bulk_selection_too_large'))
    return msg`More than ${BULK_KEYCHAINS_MAX} keychains match: narrow the search, or act on them in parts.`
  if (refusedWith(error, 409))
    return msg`Some of these keychains have a transfer under way: nothing was changed. Open them to see which.`
  if (refusedWith(error, 404)) return msg`Some of these keychains no longer exist: nothing was changed.`
  return msg`The action could not be completed: nothing was changed.`
}

/**
 * The bar of actions on the selected keychains, with their dialogs: loaded the first time a row is ticked
 * (off the list's first load). Each action is one request (all or nothing) with its own Idempotency-Key.
 */
export function KeychainBulkBar({
  organizationId,
  members,
  selection,
  count,
  onClear,
}: {
  organizationId: string
  members: Member[]
  selection: KeychainSelection
  /** How many are selected; null: all matching, not counted yet. */
  count: number | null
  onClear: () => void
}) {
  const { t, i18n } = useLingui()
  const ability = useAbility()
  const custodian = useBulkCustodian(organizationId)
  const deletion = useBulkDeletion(organizationId)
  const transfers = useBulkTransfers(organizationId)
  const [dialog, setDialog] = useState<'custodian' | 'delete' | 'transfer' | null>(null)
  const [custodianId, setCustodianId] = useState('')
  const [reason, setReason] = useState('')
  const [key, setKey] = useState(() => crypto.randomUUID())
  const pending = custodian.isPending || deletion.isPending || transfers.isPending
  const body = 'ids' in selection ? { ids: selection.ids } : { filter: selection.filter }
  const exportable = !('ids' in selection) || selection.ids.length <= EXPORT_IDS_MAX

  const open = (which: 'custodian' | 'delete' | 'transfer') => {
    setKey(crypto.randomUUID())
    setDialog(which)
  }
  const failed = (error: unknown) =>
    toasts.add({ severity: 'error', summary: i18n._(bulkProblem(error)), life: 8000 })
  const done = () => {
    setDialog(null)
    onClear()
  }

  const changeCustodian = async () => {
    if (!custodianId) return
    try {
      const result: BulkResult = await custodian.mutateAsync({
        key,
        body: { ...body, custodianId: custodianId === NOBODY ? null : custodianId, reason },
      })
      toasts.add({
        severity: 'success',
        summary:
          plural(result.count, {
            one: 'Custodian changed for # keychain.',
            other: 'Custodian changed for # keychains.',
          }) +
          (result.unchanged > 0
            ? ` ${plural(result.unchanged, { one: '# was already held by them.', other: '# were already held by them.' })}`
            : ''),
        life: 5000,
      })
      setReason('')
      done()
    } catch (error) {
      failed(error)
    }
  }

  const authorize = async (transfer: Omit<BulkTransfer, 'ids' | 'filter'>) => {
    try {
      const result = await transfers.mutateAsync({ key, body: { ...body, ...transfer } })
      toasts.add({
        severity: 'success',
        summary: plural(result.count, { one: '# transfer authorized.', other: '# transfers authorized.' }),
        life: 5000,
      })
      done()
    } catch (error) {
      failed(error)
    }
  }

  const remove = async () => {
    try {
      const result = await deletion.mutateAsync({ key, body })
      toasts.add({
        severity: 'success',
        summary: plural(result.count, { one: '# keychain deleted.', other: '# keychains deleted.' }),
        detail: t`The Deleted filter of the list brings them back.`,
        life: 6000,
      })
      done()
    } catch (error) {
      failed(error)
    }
  }

  return (
    <section
      aria-label={t`Selected keychains`}
      className="sticky bottom-3 z-30 mt-4 flex flex-wrap items-center gap-2 rounded-xl border border-slate-300 bg-white p-3 shadow-lg"
    >
      <p className="mr-auto font-semibold text-slate-900" aria-live="polite">
        {count === null ? (
          <Trans>All matching keychains selected</Trans>
        ) : (
          <Plural value={count} one="# keychain selected" other="# keychains selected" />
        )}
      </p>
      {ability.can('update', 'keychain') ? (
        <Button variant="secondary" onPress={() => open('custodian')} isDisabled={pending}>
          <UserRound aria-hidden className="size-4" />
          <Trans>Change custodian</Trans>
        </Button>
      ) : null}
      {ability.can('create', 'transfer') ? (
        <Button variant="secondary" onPress={() => open('transfer')} isDisabled={pending}>
          <ArrowRightLeft aria-hidden className="size-4" />
          <Trans>Authorize transfers</Trans>
        </Button>
      ) : null}
      {exportable ? (
        <a href={keychainExportHrefOf(body)} download="keychains.csv" className={buttonClass('secondary')}>
          <Download aria-hidden className="size-4" />
          <Trans>Export</Trans>
        </a>
      ) : (
        <span className="text-sm text-slate-700">
          <Trans>Export more than {EXPORT_IDS_MAX} ticked keychains with a search instead.</Trans>
        </span>
      )}
      {ability.can('delete', 'keychain') ? (
        <Button variant="secondary" onPress={() => open('delete')} isDisabled={pending}>
          <Trash2 aria-hidden className="size-4" />
          <Trans>Delete</Trans>
        </Button>
      ) : null}
      <Button variant="ghost" onPress={onClear} aria-label={t`Clear the selection`}>
        <X aria-hidden className="size-4" />
      </Button>
      <ConfirmDialog
        isOpen={dialog === 'custodian'}
        onOpenChange={(isOpen) => {
          if (!isOpen) setDialog(null)
        }}
        title={
          count === null ? (
            <Trans>Change the custodian of all matching keychains</Trans>
          ) : (
            <Plural
              value={count}
              one="Change the custodian of # keychain"
              other="Change the custodian of # keychains"
            />
          )
        }
        confirmLabel={<Trans>Change custodian</Trans>}
        onConfirm={() => void changeCustodian()}
        isPending={pending || !custodianId}
      >
        <div className="flex flex-col gap-4">
          <SelectField
            label={<Trans>New custodian</Trans>}
            name="custodianId"
            value={custodianId}
            onChange={setCustodianId}
            options={[
              { value: '', label: t`Choose a member` },
              { value: NOBODY, label: t`Nobody` },
              ...custodianOptions(members),
            ]}
          />
          <label className="flex flex-col gap-1.5 text-sm font-medium text-slate-800">
            <Trans>Reason (kept in each keychain's custody log)</Trans>
            <textarea
              name="reason"
              value={reason}
              maxLength={300}
              onChange={(event) => setReason(event.target.value)}
              className="min-h-20 rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
            />
          </label>
        </div>
      </ConfirmDialog>
      <BulkTransferDialog
        isOpen={dialog === 'transfer'}
        onOpenChange={(isOpen) => {
          if (!isOpen) setDialog(null)
        }}
        title={
          count === null ? (
            <Trans>Authorize a transfer of all matching keychains</Trans>
          ) : (
            <Plural
              value={count}
              one="Authorize a transfer of # keychain"
              other="Authorize a transfer of # keychains"
            />
          )
        }
        members={members}
        isPending={pending}
        onAuthorize={(transfer) => void authorize(transfer)}
      />
      <ConfirmDialog
        isOpen={dialog === 'delete'}
        onOpenChange={(isOpen) => {
          if (!isOpen) setDialog(null)
        }}
        title={
          count === null ? (
            <Trans>Delete all matching keychains?</Trans>
          ) : (
            <Plural value={count} one="Delete # keychain?" other="Delete # keychains?" />
          )
        }
        confirmLabel={<Trans>Delete</Trans>}
        onConfirm={() => void remove()}
        isPending={pending}
      >
        <Trans>
          These keychains leave the lists and their tags become free meanwhile; the Deleted filter brings them
          back. If one of them has a transfer under way, none is deleted.
        </Trans>
      </ConfirmDialog>
    </section>
  )
}
