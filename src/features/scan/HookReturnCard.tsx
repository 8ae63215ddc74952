import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, useState } from 'react'
import type { HookScanResult } from '../../../contract/places.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import type { FieldContext } from '../../offline/field.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'

const hookName = (hook: HookRef) => `${hook.code} (${hook.placeName})`

/** The scan of the hook label, kept in the outbox first; the outbox module loads with the first one. */
async function sendHookScan(
  context: FieldContext,
  scan: { keychainId: string; value: string; makeHome: boolean; label: string },
) {
  const { submitHookScan } = await import('../../offline/stocktake.ts')
  return submitHookScan(context, scan)
}

/**
 * After a return: scan the label of the hook the keychain goes on. Its home hook confirms; another hook records
 * it as misplaced there, and a manager can make that hook its new home in one tap. Offline the scan is kept and
 * recorded when the network is back.
 */
export function HookReturnCard({
  context,
  keychain,
}: {
  context: FieldContext
  keychain: { id: string; name: string }
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const [value, setValue] = useState('')
  const [scanned, setScanned] = useState<string | null>(null)
  const [answer, setAnswer] = useState<HookScanResult | null | 'kept'>(null)
  const canMakeHome = context.permissions.includes('update__keychain')

  const send = async (label: string, makeHome: boolean) => {
    try {
      const { result } = await sendHookScan(context, {
        keychainId: keychain.id,
        value: label,
        makeHome,
        label: keychain.name,
      })
      setScanned(label)
      setAnswer(result ?? 'kept')
    } catch (error) {
      await failed(t`The hook could not be recorded.`, error)
    }
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (value.trim()) void send(value.trim(), false)
    setValue('')
  }

  const seenOn = answer && answer !== 'kept' ? answer.location.seenOn : null
  const home = answer && answer !== 'kept' ? answer.location.home : null
  return (
    <section
      aria-labelledby="hook-return"
      className="mt-4 flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <h2 id="hook-return" className="text-lg font-semibold text-slate-900">
        <Trans>Put it back on its hook</Trans>
      </h2>
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
        <label className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm font-medium text-slate-800">
          <Trans>Label of the hook it goes on</Trans>
          <input
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="off"
            className="min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base"
          />
        </label>
        <Button type="submit" isDisabled={value.trim() === ''}>
          <Trans>Record</Trans>
        </Button>
      </form>
      <p aria-live="polite" className="font-medium text-slate-900">
        {answer === 'kept' ? (
          <Trans>Kept on this device: recorded when the network is back.</Trans>
        ) : answer?.outcome === 'HOME' && home ? (
          <Trans>On its home hook {hookName(home)}.</Trans>
        ) : answer?.outcome === 'NEW_HOME' && home ? (
          <Trans>{hookName(home)} is now its home.</Trans>
        ) : answer?.outcome === 'MISPLACED' && seenOn ? (
          home ? (
            <Trans>
              Recorded on {hookName(seenOn)}; its home is {hookName(home)}.
            </Trans>
          ) : (
            <Trans>Recorded on {hookName(seenOn)}; it has no home hook.</Trans>
          )
        ) : null}
      </p>
      {answer !== 'kept' && answer?.outcome === 'MISPLACED' && seenOn && canMakeHome && scanned ? (
        <Button variant="secondary" onPress={() => void send(scanned, true)}>
          <Trans>Make {seenOn.code} its home</Trans>
        </Button>
      ) : null}
    </section>
  )
}
