import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { TextField } from '../../ui/TextField.tsx'
import type { DraftProblems, TagOrderDraft } from './tag-order.ts'

type FieldProps = {
  draft: TagOrderDraft
  problems: DraftProblems
  showProblems: boolean
  onChange: (patch: Partial<TagOrderDraft>) => void
}

function ColorField({
  pickerLabel,
  label,
  value,
  onChange,
  error,
}: {
  pickerLabel: string
  label: string
  value: string
  onChange: (value: string) => void
  error?: string
}) {
  return (
    <div className="flex items-end gap-2">
      <input
        type="color"
        aria-label={pickerLabel}
        value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#000000'}
        onChange={(event) => onChange(event.target.value)}
        className="mb-0.5 h-11 w-12 shrink-0 cursor-pointer rounded-lg border border-slate-300 bg-white p-1"
      />
      <div className="flex-1">
        <TextField label={label} name={label} value={value} onChange={onChange} maxLength={7} error={error} />
      </div>
    </div>
  )
}

/** Tag name, alpha code, starting number and colours of a tag order. */
export function TagDesignFields({ draft, problems, showProblems, onChange }: FieldProps) {
  const { t, i18n } = useLingui()
  const error = (field: keyof TagOrderDraft) =>
    showProblems && problems[field] ? i18n._(problems[field]) : undefined
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <div className="sm:col-span-2">
        <TextField
          label={t`Tag name`}
          name="name"
          value={draft.name}
          onChange={(name) => onChange({ name })}
          maxLength={60}
          error={error('name')}
        />
      </div>
      <TextField
        label={t`Alpha code`}
        name="alphaCode"
        value={draft.alphaCode}
        onChange={(alphaCode) => onChange({ alphaCode: alphaCode.toUpperCase() })}
        maxLength={4}
        description={t`2 to 4 letters, printed before the number.`}
        error={error('alphaCode')}
      />
      <TextField
        label={t`Starting number`}
        name="startNumber"
        inputMode="numeric"
        value={draft.startNumber}
        onChange={(startNumber) => onChange({ startNumber: startNumber.replace(/\D/g, '') })}
        maxLength={5}
        error={error('startNumber')}
      />
      <ColorField
        pickerLabel={t`Colour picker for the foreground`}
        label={t`Foreground colour`}
        value={draft.foregroundColor}
        onChange={(foregroundColor) => onChange({ foregroundColor })}
        error={error('foregroundColor')}
      />
      <ColorField
        pickerLabel={t`Colour picker for the background`}
        label={t`Background colour`}
        value={draft.backgroundColor}
        onChange={(backgroundColor) => onChange({ backgroundColor })}
        error={error('backgroundColor')}
      />
    </div>
  )
}

export function QuantityField({
  draft,
  problems,
  showProblems,
  onChange,
  description,
}: FieldProps & { description?: ReactNode }) {
  const { t, i18n } = useLingui()
  return (
    <TextField
      label={t`Quantity`}
      name="quantity"
      inputMode="numeric"
      value={draft.quantity}
      onChange={(quantity) => onChange({ quantity: quantity.replace(/\D/g, '') })}
      maxLength={5}
      description={description}
      error={showProblems && problems.quantity ? i18n._(problems.quantity) : undefined}
    />
  )
}
