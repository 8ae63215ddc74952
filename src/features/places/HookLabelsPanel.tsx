import { Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useState } from 'react'
import type { LabelFormatId } from '../../../contract/label-layout.ts'
import type { LabelSheet } from '../../../contract/labels.ts'
import type { HookLabelPrint } from '../../../contract/places.ts'
import { downloadHookLabelsPdf, fetchHookLabelSheet } from '../../api/places.ts'
import { Button } from '../../ui/Button.tsx'
import { LabelFormatField } from '../../ui/LabelFormatField.tsx'
import { placeRefusal } from './labels.ts'

// The print view draws every QR code in the browser: loaded when asked for.
const LabelSheetView = lazy(() => import('../../ui/LabelSheetView.tsx'))

/**
 * "Print labels" of a board or cabinet: its own label and its hooks', at any label format (the small Dymo and
 * Brother ones suit a hook), as the server's PDF or the browser's print view of the same labels.
 */
export function HookLabelsPanel({ placeId, hookCount }: { placeId: string; hookCount: number }) {
  const { t, i18n } = useLingui()
  const [format, setFormat] = useState<LabelFormatId>('dymo-11352')
  const [withPlace, setWithPlace] = useState(true)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [sheet, setSheet] = useState<LabelSheet | null>(null)
  const run = async (action: (print: HookLabelPrint) => Promise<void>, fallback: string) => {
    setBusy(true)
    setError(null)
    try {
      await action({ format, withPlace })
    } catch (caught) {
      setError(placeRefusal(caught, i18n) ?? fallback)
    } finally {
      setBusy(false)
    }
  }
  const nothing = hookCount === 0 && !withPlace
  return (
    <section aria-label={t`Print labels`} className="flex flex-col gap-4">
      <h2 className="font-semibold text-slate-900">
        <Trans>Print labels</Trans>
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <LabelFormatField value={format} onChange={setFormat} />
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
          <input
            type="checkbox"
            checked={withPlace}
            onChange={(event) => setWithPlace(event.target.checked)}
          />
          <Trans>With the board’s own label first</Trans>
        </label>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          onPress={() =>
            void run(
              (print) => downloadHookLabelsPdf(placeId, print),
              t`The PDF could not be made. Try again.`,
            )
          }
          isDisabled={busy || nothing}
        >
          <Trans>Download the PDF</Trans>
        </Button>
        <Button
          variant="secondary"
          onPress={() =>
            void run(
              async (print) => setSheet(await fetchHookLabelSheet(placeId, print)),
              t`The print view could not be made. Try again.`,
            )
          }
          isDisabled={busy || nothing}
        >
          <Trans>Open the print view</Trans>
        </Button>
      </div>
      {sheet ? (
        <Suspense fallback={null}>
          <LabelSheetView sheet={sheet} withName onClose={() => setSheet(null)} />
        </Suspense>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  )
}
