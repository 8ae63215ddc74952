import { Trans, useLingui } from '@lingui/react/macro'
import { Check, KeyRound, Pencil, QrCode, Trash2, X } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import type { Key } from '../../../contract/keychains.ts'
import { useRemoveKey, useRenameKey } from '../../api/keychains.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'
import { toasts } from '../../ui/toast/store.ts'

/** One key of a keychain: its name and type, renamed in place or removed by those who may edit. */
export function KeyRow({
  organizationId,
  keychainId,
  keyItem,
  canEdit,
}: {
  organizationId: string
  keychainId: string
  keyItem: Key
  canEdit: boolean
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const renameKey = useRenameKey(organizationId, keychainId)
  const removeKey = useRemoveKey(organizationId, keychainId)
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(keyItem.name)
  const [busy, setBusy] = useState(false)

  const run = async (action: () => Promise<unknown>, success: string, failure: string) => {
    setBusy(true)
    try {
      await action()
      toasts.add({ severity: 'success', summary: success, life: 4000 })
      return true
    } catch (error) {
      failed(failure, error)
      return false
    } finally {
      setBusy(false)
    }
  }
  const save = async (event: FormEvent) => {
    event.preventDefault()
    if (name.trim() === '' || name.trim() === keyItem.name) {
      setEditing(false)
      return
    }
    const done = await run(
      () => renameKey.mutateAsync({ keyId: keyItem.id, name: name.trim() }),
      t`The key has been renamed.`,
      t`The key could not be renamed.`,
    )
    if (done) setEditing(false)
  }
  const Icon = keyItem.type === 'TAG' ? QrCode : KeyRound
  return (
    <li className="flex items-center gap-3 px-4 py-3">
      <Icon
        aria-hidden
        className={`size-5 shrink-0 ${keyItem.type === 'TAG' ? 'text-brand-700' : 'text-slate-600'}`}
      />
      {editing ? (
        <form onSubmit={save} className="flex flex-1 items-center gap-2">
          <input
            value={name}
            onChange={(event) => setName(event.target.value)}
            aria-label={t`New name of ${keyItem.name}`}
            maxLength={120}
            // biome-ignore lint/a11y/noAutofocus: the field appears because the user asked to rename
            autoFocus
            className="min-h-11 flex-1 rounded-lg lg:min-h-10 border border-slate-300 px-2"
          />
          <Button type="submit" variant="ghost" isDisabled={busy} aria-label={t`Save the name`}>
            <Check aria-hidden className="size-4" />
          </Button>
          <Button variant="ghost" onPress={() => setEditing(false)} aria-label={t`Cancel`}>
            <X aria-hidden className="size-4" />
          </Button>
        </form>
      ) : (
        <span className="flex-1">
          <span className="font-medium text-slate-900">{keyItem.name}</span>{' '}
          <span className="text-sm text-slate-600">
            {keyItem.type === 'TAG' ? <Trans>Tag {keyItem.tag?.code}</Trans> : <Trans>Key</Trans>}
          </span>
        </span>
      )}
      {canEdit && !editing ? (
        <>
          <Button variant="ghost" onPress={() => setEditing(true)} aria-label={t`Rename ${keyItem.name}`}>
            <Pencil aria-hidden className="size-4" />
          </Button>
          <Button
            variant="ghost"
            isDisabled={busy}
            onPress={() =>
              void run(
                () => removeKey.mutateAsync(keyItem.id),
                t`The key ${keyItem.name} has been removed.`,
                t`The key could not be removed.`,
              )
            }
            aria-label={t`Remove ${keyItem.name}`}
          >
            <Trash2 aria-hidden className="size-4" />
          </Button>
        </>
      ) : null}
    </li>
  )
}
