import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import {
  HANDOVER_CUSTODY_REASON,
  type Keychain,
  TRANSFER_CUSTODY_REASONS,
} from '../../../contract/keychains.ts'
import type { Member } from '../../../contract/organizations.ts'
import { custodyLogQuery, useUpdateKeychain } from '../../api/keychains.ts'
import { formatDateTime } from '../../lib/format.ts'
import { personName } from '../../lib/labels.ts'
import { useLocale } from '../../lib/use-locale.ts'
import { Button } from '../../ui/Button.tsx'
import { SelectField } from '../../ui/SelectField.tsx'
import { TextField } from '../../ui/TextField.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { useSubmit } from '../../ui/use-submit.ts'
import { custodianOptions } from './custodians.ts'
import { custodianChangeProblem } from './refusals.ts'

/** Plain React state (no form library): the form is on the page's first load for anyone who may change the holder. */
function ChangeCustodianForm({ keychain, members }: { keychain: Keychain; members: Member[] }) {
  const { t, i18n } = useLingui()
  const updateKeychain = useUpdateKeychain(keychain.organizationId)
  const current = keychain.custodian?.id ?? ''
  const [custodianId, setCustodianId] = useState(current)
  const [reason, setReason] = useState('')
  const reasonError = reason.length > 300 ? t`At most 300 characters.` : undefined
  const { pending, submit } = useSubmit(async () => {
    if (reasonError) return
    try {
      await updateKeychain.mutateAsync({
        id: keychain.id,
        update: { custodianId: custodianId || null, reason },
      })
      setReason('')
      toasts.add({ severity: 'success', summary: t`The custodian has been changed.`, life: 4000 })
    } catch (error) {
      // A 409 says why in the reader's language (e.g. the keychain is out on a transfer).
      toasts.add({
        severity: 'error',
        summary: i18n._(custodianChangeProblem(error, msg`The custodian could not be changed.`)),
        life: 6000,
      })
    }
  })
  return (
    <form
      noValidate
      aria-label={t`Change custodian`}
      className="grid items-start gap-4 sm:grid-cols-2"
      onSubmit={(event) => void submit(event)}
    >
      <SelectField
        label={t`New custodian`}
        name="custodianId"
        value={custodianId}
        onChange={setCustodianId}
        options={[{ value: '', label: t`Nobody` }, ...custodianOptions(members)]}
      />
      <TextField
        label={t`Reason (optional)`}
        name="reason"
        value={reason}
        onChange={setReason}
        error={reasonError}
      />
      <Button
        type="submit"
        variant="secondary"
        className="justify-self-start"
        isDisabled={pending || custodianId === current}
      >
        <Trans>Change custodian</Trans>
      </Button>
    </form>
  )
}

function CustodyLog({ organizationId, keychainId }: { organizationId: string; keychainId: string }) {
  const { t } = useLingui()
  const locale = useLocale()
  const { data } = useQuery(custodyLogQuery(organizationId, keychainId))
  if (!data) return null
  if (data.length === 0) {
    return (
      <p className="text-sm text-slate-700">
        <Trans>No custody change recorded yet.</Trans>
      </p>
    )
  }
  const nobody = t`nobody`
  const reasonText = (reason: string) =>
    reason === TRANSFER_CUSTODY_REASONS.PICKUP
      ? t`picked up on a transfer`
      : reason === TRANSFER_CUSTODY_REASONS.RETURN
        ? t`returned from a transfer`
        : reason === HANDOVER_CUSTODY_REASON
          ? t`handed over from phone to phone`
          : reason
  return (
    <ol aria-label={t`Custody log`} className="flex flex-col gap-3 border-l-2 border-slate-200 pl-4">
      {data.map((entry) => {
        const from = entry.from ? personName(entry.from) : nobody
        const to = entry.to ? personName(entry.to) : nobody
        const by = entry.by ? personName(entry.by) : t`the system`
        return (
          <li key={entry.id} className="text-sm">
            <p className="font-medium text-slate-900">
              <Trans>
                From {from} to {to}
              </Trans>
            </p>
            <p className="text-slate-700">
              <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time> · <Trans>by {by}</Trans>
              {entry.reason ? ` · ${reasonText(entry.reason)}` : ''}
            </p>
          </li>
        )
      })}
    </ol>
  )
}

export function CustodySection({
  organizationId,
  keychain,
  members,
  canEdit,
}: {
  organizationId: string
  keychain: Keychain
  members: Member[]
  canEdit: boolean
}) {
  return (
    <section aria-labelledby="custody-title" className="flex flex-col gap-4">
      <h2 id="custody-title" className="text-lg font-semibold text-slate-900">
        <Trans>Custody</Trans>
      </h2>
      <p className="text-slate-800">
        <Trans>Held by:</Trans>{' '}
        <strong data-testid="custodian">
          {keychain.custodian ? personName(keychain.custodian) : <Trans>nobody</Trans>}
        </strong>
      </p>
      {canEdit ? <ChangeCustodianForm keychain={keychain} members={members} /> : null}
      <h3 className="font-semibold text-slate-900">
        <Trans>Custody log</Trans>
      </h3>
      <CustodyLog organizationId={organizationId} keychainId={keychain.id} />
    </section>
  )
}
