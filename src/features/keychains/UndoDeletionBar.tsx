import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { Undo2, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useRestoreKeychain } from '../../api/keychains.ts'
import { Button } from '../../ui/Button.tsx'
import { toasts } from '../../ui/toast/store.ts'
import { restoreProblem } from './refusals.ts'
import { undoDeletion, useDeletionToUndo } from './undo-deletion.ts'

/** How long the undo stays offered; the deleted list keeps the keychain for a restore afterwards. */
const UNDO_MS = 12_000

/**
 * The toast of a deletion, with its undo: "Keychain X deleted. Undo". Pinned at the bottom of the keychain
 * pages, announced politely to screen readers; the undo restores the keychain with its keys and tags.
 */
export function UndoDeletionBar({ organizationId }: { organizationId: string }) {
  const { t, i18n } = useLingui()
  const deleted = useDeletionToUndo()
  const restore = useRestoreKeychain(organizationId)
  const [pending, setPending] = useState(false)
  useEffect(() => {
    if (!deleted) return
    const timer = setTimeout(() => undoDeletion.dismiss(deleted.id), UNDO_MS - (Date.now() - deleted.at))
    return () => clearTimeout(timer)
  }, [deleted])
  if (!deleted) return null
  const undo = async () => {
    setPending(true)
    try {
      await restore.mutateAsync(deleted.id)
      undoDeletion.dismiss(deleted.id)
      toasts.add({ severity: 'success', summary: t`The keychain ${deleted.name} is back.`, life: 4000 })
    } catch (error) {
      toasts.add({
        severity: 'error',
        summary: i18n._(restoreProblem(error, msg`The keychain could not be restored.`)),
        life: 6000,
      })
    } finally {
      setPending(false)
    }
  }
  return (
    <div
      role="status"
      className="fixed inset-x-3 bottom-3 z-40 mx-auto flex max-w-lg items-center gap-3 rounded-xl bg-slate-900 px-4 py-2 text-white shadow-lg"
    >
      <p className="min-w-0 flex-1 text-sm">
        <Trans>The keychain {deleted.name} has been deleted.</Trans>
      </p>
      <Button
        variant="secondary"
        onPress={() => void undo()}
        isDisabled={pending}
        aria-label={t`Undo the deletion of ${deleted.name}`}
      >
        <Undo2 aria-hidden className="size-4" />
        <Trans>Undo</Trans>
      </Button>
      <button
        type="button"
        onClick={() => undoDeletion.dismiss(deleted.id)}
        aria-label={t`Close`}
        className="flex size-11 items-center justify-center rounded-lg text-slate-200 hover:bg-slate-800"
      >
        <X aria-hidden className="size-4" />
      </button>
    </div>
  )
}
