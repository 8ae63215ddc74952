import { Trans, useLingui } from '@lingui/react/macro'
import { LoaderCircle, ScanLine, X } from 'lucide-react'
import { type FormEvent, type ReactNode, Suspense, useRef, useState } from 'react'
import type { ScanResult } from '../../../contract/scans.ts'
import { ApiError } from '../../lib/api.ts'
import { useHref } from '../../lib/use-locale.ts'
import { AppLink } from '../../ui/AppLink.tsx'
import { Button, buttonClass } from '../../ui/Button.tsx'
import { Card, PageHeader } from '../../ui/Card.tsx'
import { CameraView } from '../../ui/camera/CameraView.tsx'
import { signalRead } from './feedback.ts'
import { FocusResult, useResultSheet } from './useResultSheet.ts'

/** `seq`: one per answer, so that each one takes the focus once shown. */
type Outcome =
  | { kind: 'result'; seq: number; result: ScanResult; queued: boolean }
  | { kind: 'error'; seq: number; value: string; code: string }
  | null

/** How a scan reaches the server: through the device's outbox, composed in by the route. */
export type SendScan = (value: string) => Promise<{ result: ScanResult; queued: boolean }>

/**
 * Scans a tag with the camera, or takes a typed code — hardware scanners type like a keyboard and end with
 * Enter. `renderResult` shows what the value resolved to; both it and `onResult` are composed by the route.
 */
export function ScanScreen({
  renderResult,
  onResult,
  send,
  extra,
  placeholder = 'ABC-00042',
  canReceive = false,
}: {
  /** The caller's role may be handed keychains from phone to phone: a way to "Receive a keychain". */
  canReceive?: boolean
  /** An example code in the scan field: one of the organization's own (its tag prefix). */
  placeholder?: string
  /** Composed in by the route under the typed-code field (the pairing session's switch and count). */
  extra?: ReactNode
  /** `queued`: answered from this device's copy, the scan waits to be sent. */
  renderResult: (result: ScanResult, queued: boolean) => ReactNode
  /** Called with each answer, e.g. to go straight to the keychain a tag belongs to. */
  onResult?: (result: ScanResult, queued: boolean) => void
  send: SendScan
}) {
  const { t } = useLingui()
  const href = useHref()
  const [typed, setTyped] = useState('')
  const [busy, setBusy] = useState(false)
  const [outcome, setOutcome] = useState<Outcome>(null)

  // Reads arrive faster than answers (a hardware scanner, a steady camera): queue them, send one at a time.
  const queue = useRef<string[]>([])
  const answers = useRef(0)
  const draining = useRef(false)
  const drain = async () => {
    if (draining.current) return
    draining.current = true
    setBusy(true)
    while (queue.current.length > 0) {
      const value = queue.current.shift() ?? ''
      try {
        const { result, queued } = await send(value)
        signalRead()
        setOutcome({ kind: 'result', seq: ++answers.current, result, queued })
        onResult?.(result, queued)
      } catch (error) {
        setOutcome({
          kind: 'error',
          seq: ++answers.current,
          value,
          code: error instanceof ApiError ? error.code : 'network_error',
        })
      }
    }
    draining.current = false
    setBusy(false)
  }
  const submit = (value: string) => {
    const trimmed = value.trim()
    if (trimmed === '') return
    queue.current.push(trimmed)
    void drain()
  }

  const onTyped = (event: FormEvent) => {
    event.preventDefault()
    submit(typed)
    setTyped('')
  }
  const open = busy || outcome !== null
  const dismiss = () => {
    setOutcome(null)
    document.getElementById('scan-value')?.focus()
  }
  const { sheet, height } = useResultSheet(open)

  return (
    <>
      <PageHeader title={<Trans>Scan a tag</Trans>}>
        {/* No icon: the scan page's first load is at its ceiling. */}
        {canReceive ? (
          <AppLink href={href('/app/handover')} className={buttonClass('secondary')}>
            <Trans>Receive a keychain</Trans>
          </AppLink>
        ) : null}
      </PageHeader>
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card className="flex min-w-0 flex-col gap-4">
          <CameraView onRead={submit} />
          <form onSubmit={onTyped} className="flex flex-col gap-2">
            <label htmlFor="scan-value" className="text-sm font-medium text-slate-800">
              <Trans>Tag code or link</Trans>
            </label>
            <div className="flex gap-2">
              <input
                id="scan-value"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                enterKeyHint="go"
                placeholder={placeholder}
                className="min-h-11 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 font-mono text-base uppercase focus:border-brand-600 focus:outline-2 focus:outline-brand-600/30"
              />
              <Button type="submit" isDisabled={typed.trim() === ''}>
                <ScanLine aria-hidden className="size-4" />
                <Trans>Look up</Trans>
              </Button>
            </div>
            <p className="text-sm text-slate-600">
              <Trans>A hardware scanner works here too: it types the code and presses Enter.</Trans>
            </p>
          </form>
          {extra}
        </Card>
        {/* On a phone the result is a sheet pinned to the bottom of the screen, under the thumb, over the camera
            (which keeps reading); from lg on it is the grid's second column. */}
        {open ? (
          <section
            ref={sheet}
            aria-label={t`Scan result`}
            data-scan-sheet
            onKeyDown={(event) => {
              if (event.key === 'Escape') dismiss()
            }}
            className="fixed inset-x-0 bottom-0 z-10 flex max-h-[calc(100dvh-3.5rem)] flex-col gap-3 overflow-y-auto rounded-t-2xl border-t border-slate-200 bg-white px-3 pt-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-8px_24px_rgb(15_23_42/0.18)] lg:static lg:z-auto lg:max-h-none lg:overflow-visible lg:rounded-none lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none"
          >
            <div className="flex items-center justify-between gap-2">
              {busy ? (
                <p role="status" className="flex items-center gap-2 text-slate-700">
                  <LoaderCircle aria-hidden className="size-4 animate-spin" />
                  <Trans>Looking up…</Trans>
                </p>
              ) : (
                <span />
              )}
              <Button variant="ghost" onPress={dismiss} className="shrink-0">
                <X aria-hidden className="size-4" />
                <Trans>Scan the next tag</Trans>
              </Button>
            </div>
            {outcome?.kind === 'result' && outcome.queued ? (
              <p role="status" className="rounded-lg bg-amber-50 p-3 font-medium text-amber-950">
                <Trans>
                  Offline: the scan is saved on this device and will be sent when the network returns.
                </Trans>
              </p>
            ) : null}
            {outcome?.kind === 'result' ? (
              // The route may load the result's parts lazily: the focus moves once they are shown.
              <Suspense>
                <FocusResult key={outcome.seq} sheet={sheet} />
                {renderResult(outcome.result, outcome.queued)}
              </Suspense>
            ) : null}
            {outcome?.kind === 'error' ? (
              <p
                role="alert"
                data-scan-error={outcome.code}
                className="rounded-lg bg-red-50 p-4 font-medium text-red-950"
              >
                {outcome.code === 'forbidden' ? (
                  <Trans>Your role in this organization does not allow scanning.</Trans>
                ) : outcome.code === 'no_organization_selected' ? (
                  <Trans>
                    Select an organization first: tags are looked up in the selected organization.
                  </Trans>
                ) : outcome.code === 'network_error' ? (
                  <Trans>
                    The scan of “{outcome.value}” could not be sent. Check the connection and try again.
                  </Trans>
                ) : (
                  <Trans>The scan of “{outcome.value}” failed. Please try again.</Trans>
                )}
              </p>
            ) : null}
            {outcome?.kind === 'error' ? <FocusResult key={outcome.seq} sheet={sheet} /> : null}
          </section>
        ) : null}
      </div>
      {/* Room to scroll what the sheet covers into view above it (a phone only: the sheet is in the grid on lg). */}
      {open ? <div aria-hidden className="lg:hidden" style={{ height }} /> : null}
    </>
  )
}
