import { Plural, Trans, useLingui } from '@lingui/react/macro'
import { lazy, Suspense, useState } from 'react'
import type { LabelFormatId } from '../../../contract/label-layout.ts'
import {
  LABEL_PRINT_MAX,
  type LabelPrint,
  type LabelSelection,
  type LabelSheet,
} from '../../../contract/labels.ts'
import { downloadLabelsPdf, fetchLabelSheet } from '../../api/labels.ts'
import { ApiError } from '../../lib/api.ts'
import { Button } from '../../ui/Button.tsx'
import { LabelFormatField } from '../../ui/LabelFormatField.tsx'

// The print view draws every QR code in the browser: loaded when asked for.
const LabelSheetView = lazy(() => import('../../ui/LabelSheetView.tsx'))

/**
 * Reprint of existing tags: the label format, the name or not, then a PDF drawn by the server at the media's
 * real size, or the browser's print view of the same labels. `selection` null: nothing chosen yet. `onPrint`
 * sends it (the PDF download, in the app); `onView` asks for the print view's labels.
 */
export function LabelPrintPanel({
  selection,
  count,
  onPrint,
  onView = fetchLabelSheet,
}: {
  selection: LabelSelection | null
  /** How many tags are chosen; null when "all matching the filter" (the server counts them). */
  count: number | null
  onPrint: (print: LabelPrint) => Promise<void>
  onView?: (print: LabelPrint) => Promise<LabelSheet>
}) {
  const { t } = useLingui()
  const [format, setFormat] = useState<LabelFormatId>('avery-l7160')
  const [withName, setWithName] = useState(true)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [sheet, setSheet] = useState<{ sheet: LabelSheet; withName: boolean } | null>(null)
  const max = LABEL_PRINT_MAX
  const tooMany = count !== null && count > max
  const refusal = (caught: unknown, fallback: string) => {
    if (caught instanceof ApiError && caught.code === 'label_selection_too_large')
      return t`More than ${max} tags match this search: narrow it, or print them in parts.`
    if (caught instanceof ApiError && caught.code === 'label_selection_empty')
      return t`No tag matches this search: nothing to print.`
    if (caught instanceof ApiError && caught.status === 404)
      return t`Some of these tags no longer exist: reload the list.`
    return fallback
  }
  const run = async (action: (print: LabelPrint) => Promise<void>, fallback: string) => {
    if (!selection) return
    setBusy(true)
    setError(null)
    try {
      await action({ format, selection, withName })
    } catch (caught) {
      setError(refusal(caught, fallback))
    } finally {
      setBusy(false)
    }
  }
  const print = () => run(onPrint, t`The PDF could not be made. Try again.`)
  const view = () =>
    run(
      async (request) => setSheet({ sheet: await onView(request), withName: request.withName ?? true }),
      t`The print view could not be made. Try again.`,
    )
  return (
    <section
      aria-label={t`Print labels again`}
      className="flex flex-wrap items-end gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <LabelFormatField value={format} onChange={setFormat} />
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input type="checkbox" checked={withName} onChange={(event) => setWithName(event.target.checked)} />
        <Trans>Print the tag’s name</Trans>
      </label>
      <Button onPress={() => void print()} isDisabled={!selection || tooMany || busy}>
        {count === null ? (
          <Trans>Download the PDF of all matching tags</Trans>
        ) : (
          <Plural value={count} one="Download the PDF (# tag)" other="Download the PDF (# tags)" />
        )}
      </Button>
      <Button variant="secondary" onPress={() => void view()} isDisabled={!selection || tooMany || busy}>
        <Trans>Open the print view</Trans>
      </Button>
      {sheet ? (
        <Suspense fallback={null}>
          <LabelSheetView sheet={sheet.sheet} withName={sheet.withName} onClose={() => setSheet(null)} />
        </Suspense>
      ) : null}
      {tooMany ? (
        <p className="w-full text-sm text-red-700">
          <Trans>At most {max} tags can be printed at a time.</Trans>
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="w-full text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </section>
  )
}

/** A tag's page: print this one tag again, on any label format. */
export function ReprintTagPanel({ tagId, permissions }: { tagId: string; permissions: readonly string[] }) {
  if (!permissions.includes('read__tag')) return null
  return (
    <div className="mt-4">
      <LabelPrintPanel selection={{ by: 'ids', ids: [tagId] }} count={1} onPrint={downloadLabelsPdf} />
    </div>
  )
}
