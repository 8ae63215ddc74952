import { Trans } from '@lingui/react/macro'
import type { TagNumbering } from '../../../contract/commerce.ts'
import { Button } from '../../ui/Button.tsx'
import { useTagCodeRangesText } from '../../ui/tag-code-ranges.ts'

/**
 * The codes the tags will really be printed with, said before anything is paid: when the asked range is taken,
 * where the numbers continue instead, and a button to start there. A fixed minimum height keeps the form still.
 */
export function TagNumbersNote({
  numbering,
  askedFirstCode,
  onStartAt,
}: {
  numbering: TagNumbering | undefined
  askedFirstCode: string
  onStartAt: (startNumber: string) => void
}) {
  const rangesText = useTagCodeRangesText()
  if (!numbering) return <p className="min-h-12" />
  const first = numbering.codes[0]?.first
  if (!first) {
    return (
      <p role="status" className="min-h-12 text-sm text-red-800">
        <Trans>Not enough free numbers are left for this alpha code: choose another one.</Trans>
      </p>
    )
  }
  const codes = rangesText(numbering.codes)
  if (first === askedFirstCode) {
    return (
      <p role="status" className="min-h-12 text-sm text-slate-700">
        <Trans>The tags will carry {codes}.</Trans>
      </p>
    )
  }
  const startNumber = String(Number(first.split('-')[1]))
  return (
    <div role="status" className="flex min-h-12 flex-col items-start gap-2 text-sm text-amber-950">
      <p>
        <Trans>
          {askedFirstCode} is already taken or booked by your cart: the tags will carry {codes}.
        </Trans>
      </p>
      <Button variant="secondary" onPress={() => onStartAt(startNumber)}>
        <Trans>Start at {first}</Trans>
      </Button>
    </div>
  )
}
