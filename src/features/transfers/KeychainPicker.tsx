import { Trans, useLingui } from '@lingui/react/macro'
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { QrCode } from 'lucide-react'
import { useEffect, useState } from 'react'
import { parseScanValue } from '../../../contract/scan-value.ts'
import { keychainListQuery } from '../../api/keychains.ts'
import { keychainOfTagCodeQuery, keychainOfTagQuery } from '../../api/transfers-picker.ts'
import { personName } from '../../lib/labels.ts'
import { TextField } from '../../ui/TextField.tsx'

export type PickedKeychain = { id: string; name: string }

const SHOWN = 8

/** `value`, once it has not changed for `ms` (what a search sends while someone types). */
function useSettled(value: string, ms: number): [string, (now: string) => void] {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return [settled, setSettled]
}

/**
 * Finds the keychain to transfer: by name as one types (the server's search), or by a tag's code or QR link,
 * typed or sent by a hardware scanner (which types it and presses Enter). Enter picks the tag's keychain, or
 * the only keychain found.
 */
export function KeychainPicker({
  organizationId,
  onPick,
}: {
  organizationId: string
  onPick: (keychain: PickedKeychain) => void
}) {
  const { t } = useLingui()
  const [text, setText] = useState('')
  const [search, settleNow] = useSettled(text.trim(), 250)
  const [submitted, setSubmitted] = useState<string | null>(null)
  const target = parseScanValue(search)
  const byCode = useQuery({
    ...keychainOfTagCodeQuery(organizationId, target.kind === 'code' ? target.code : ''),
    enabled: target.kind === 'code',
  })
  const byTag = useQuery({
    ...keychainOfTagQuery(organizationId, target.kind === 'publicId' ? target.publicId : ''),
    enabled: target.kind === 'publicId',
  })
  const byName = useInfiniteQuery({
    ...keychainListQuery(organizationId, search),
    enabled: target.kind !== 'publicId',
  })
  const tagged = target.kind === 'code' ? byCode : target.kind === 'publicId' ? byTag : null
  const found = (byName.data?.pages[0]?.data ?? []).slice(0, SHOWN)
  const searching = (tagged?.isFetching ?? false) || byName.isFetching

  // Enter (a scanner's too) picks once the answer for what was typed is in.
  useEffect(() => {
    if (submitted === null || submitted !== search || searching) return
    const only = tagged?.data ?? (found.length === 1 ? found[0] : undefined)
    setSubmitted(null)
    if (only) onPick({ id: only.id, name: only.name })
  }, [submitted, search, searching, tagged?.data, found, onPick])

  const noTag = tagged?.isSuccess === true && tagged.data === null
  return (
    <div className="flex flex-col gap-3">
      <search aria-label={t`Find the keychain`}>
        <form
          onSubmit={(event) => {
            event.preventDefault()
            settleNow(text.trim())
            setSubmitted(text.trim())
          }}
        >
          <TextField
            label={t`Keychain`}
            name="keychain-search"
            value={text}
            onChange={setText}
            autoComplete="off"
            autoFocus
            description={<Trans>Type part of its name, or type or scan the code of one of its tags.</Trans>}
          />
        </form>
      </search>
      {tagged?.data ? (
        <button
          type="button"
          className="flex min-h-11 items-center gap-3 rounded-lg border border-brand-300 bg-brand-50 px-4 py-2 text-left hover:bg-brand-100"
          onClick={() => onPick({ id: tagged.data!.id, name: tagged.data!.name })}
        >
          <QrCode aria-hidden className="size-5 text-brand-800" />
          <span>
            <span className="block font-semibold text-slate-900">{tagged.data.name}</span>
            <span className="block text-sm text-slate-700">
              <Trans>Tag {tagged.data.code}</Trans>
            </span>
          </span>
        </button>
      ) : null}
      {noTag ? (
        <p className="text-sm text-slate-700" role="status">
          <Trans>This tag is not on a keychain of the organization.</Trans>
        </p>
      ) : null}
      {target.kind !== 'publicId' && found.length > 0 ? (
        <ul aria-label={t`Keychains found`} className="flex flex-col gap-2">
          {found.map((keychain) => {
            const holder = keychain.custodian ? personName(keychain.custodian) : null
            return (
              <li key={keychain.id}>
                <button
                  type="button"
                  className="flex min-h-11 w-full flex-col rounded-lg border border-slate-200 bg-white px-4 py-2 text-left hover:bg-slate-50"
                  onClick={() => onPick({ id: keychain.id, name: keychain.name })}
                >
                  <span className="font-semibold text-slate-900">{keychain.name}</span>
                  <span className="text-sm text-slate-700">
                    {holder ? <Trans>Held by {holder}</Trans> : <Trans>Nobody holds it</Trans>}
                    {keychain.tagCodes.length ? ` · ${keychain.tagCodes.join(', ')}` : ''}
                  </span>
                </button>
              </li>
            )
          })}
        </ul>
      ) : null}
      {!searching && search && !tagged?.data && found.length === 0 && !noTag ? (
        <p className="text-sm text-slate-700" role="status">
          <Trans>No keychain matches “{search}”.</Trans>
        </p>
      ) : null}
    </div>
  )
}
