import { useLingui } from '@lingui/react/macro'
import type { LocalRefusal } from '../../offline/handover.ts'
import { REFUSAL_TEXTS } from './refusals.ts'

/** Why the handover was refused and what to do, as an alert (it takes the reader's attention at once). */
export function RefusalNotice({ reason, alert = true }: { reason: LocalRefusal; alert?: boolean }) {
  const { i18n } = useLingui()
  const text = REFUSAL_TEXTS[reason]
  return (
    <div
      role={alert ? 'alert' : undefined}
      data-refusal={reason}
      className="flex flex-col gap-1 rounded-lg bg-red-50 p-3 text-red-950"
    >
      <p className="font-semibold">{i18n._(text.what)}</p>
      <p>{i18n._(text.todo)}</p>
    </div>
  )
}
