import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react'
import { parseLocationLabel } from '../../../contract/places.ts'
import type { StocktakeScanResult } from '../../../contract/stocktakes.ts'
import type { HookRef } from '../../../contract/whereabouts.ts'
import type { FieldContext } from '../../offline/field.ts'
import { Button } from '../../ui/Button.tsx'
import { useFailureToast } from '../../ui/failure-toast.ts'

// The camera's controls load after the page: typing and hardware scanners work meanwhile.
const CameraView = lazy(() =>
  import('../../ui/camera/CameraView.tsx').then((module) => ({ default: module.CameraView })),
)

/** What the last scan did, in words. */
function useScanFeedback() {
  const { i18n } = useLingui()
  return (result: StocktakeScanResult | null, value: string): string => {
    if (!result) return i18n._(msg`${value}: kept on this device, counted when the network is back.`)
    const name = result.keychain?.name ?? value
    const hook = result.hook ? `${result.hook.code} (${result.hook.placeName})` : ''
    switch (result.outcome) {
      case 'HOOK':
        return i18n._(msg`Hook ${hook}: the next tags hang here.`)
      case 'FOUND':
        return i18n._(msg`Found: ${name}.`)
      case 'MISPLACED':
        return i18n._(msg`Misplaced: ${name} is on ${hook}.`)
      case 'REPEATED':
        return i18n._(msg`${name} was already counted.`)
      case 'UNEXPECTED':
        return i18n._(msg`Not expected here: ${name}.`)
      default:
        return i18n._(msg`Unknown to the organization: ${value}.`)
    }
  }
}

/**
 * Scans into an open stocktake: a typed value, or a hardware scanner (it types and presses Enter). A hook label
 * says where the next tags hang; each scan is kept on the device first and counted by the server once.
 */
export function ScanPanel({
  context,
  stocktakeId,
  hooks,
}: {
  context: FieldContext
  stocktakeId: string
  /** The scope's hooks by their label's public id, as far as this device knows them. */
  hooks: ReadonlyMap<string, HookRef>
}) {
  const { t } = useLingui()
  const failed = useFailureToast()
  const feedbackOf = useScanFeedback()
  const [value, setValue] = useState('')
  // The hook the next tags hang on: read by scans waiting in line, so kept in a ref as well as shown.
  const [hook, showHook] = useState<HookRef | null>(null)
  const current = useRef<HookRef | null>(null)
  const setHook = (next: HookRef | null) => {
    current.current = next
    showHook(next)
  }
  const [feedback, setFeedback] = useState('')
  const input = useRef<HTMLInputElement>(null)

  const scan = async (scanned: string) => {
    const label = parseLocationLabel(scanned)
    const known = label?.kind === 'hook' ? (hooks.get(label.publicId) ?? null) : null
    if (label?.kind === 'hook') setHook(known)
    try {
      // The outbox (Dexie) loads with the first scan, not with the page.
      const { submitStocktakeScan } = await import('../../offline/stocktake.ts')
      const { result } = await submitStocktakeScan(context, {
        stocktakeId,
        value: scanned,
        hookId: label ? (known?.id ?? null) : (current.current?.id ?? null),
        label: scanned,
      })
      if (result?.outcome === 'HOOK' && result.hook) setHook(result.hook)
      setFeedback(feedbackOf(result, scanned))
    } catch (error) {
      await failed(t`The scan could not be counted.`, error)
    }
  }

  // Reads arrive faster than answers (a steady camera, a hardware scanner): one at a time, in order, so that a
  // tag always counts on the hook scanned before it.
  const queue = useRef(Promise.resolve())
  const take = (scanned: string) => {
    queue.current = queue.current.then(() => scan(scanned))
  }

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const scanned = value.trim()
    if (!scanned) return
    setValue('')
    input.current?.focus()
    take(scanned)
  }

  return (
    <section
      aria-labelledby="stocktake-scan"
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <h2 id="stocktake-scan" className="text-lg font-semibold text-slate-900">
        <Trans>Scan</Trans>
      </h2>
      <Suspense fallback={null}>
        <CameraView onRead={take} />
      </Suspense>
      <form onSubmit={onSubmit} className="flex flex-wrap items-end gap-2">
        <label className="flex min-w-0 flex-1 flex-col gap-1.5 text-sm font-medium text-slate-800">
          <Trans>Hook label or tag</Trans>
          <input
            ref={input}
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            className="min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base"
          />
        </label>
        <Button type="submit">
          <Trans>Count</Trans>
        </Button>
      </form>
      <p className="text-sm text-slate-700">
        {hook ? (
          <Trans>
            Tags scanned now hang on {hook.code} ({hook.placeName}).
          </Trans>
        ) : (
          <Trans>Scan a hook label first to say where the next tags hang.</Trans>
        )}{' '}
        <Trans>A hardware scanner works here too.</Trans>
      </p>
      <p aria-live="polite" className="min-h-6 font-medium text-slate-900" data-testid="scan-feedback">
        {feedback}
      </p>
    </section>
  )
}
