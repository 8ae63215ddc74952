import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { LABEL_FORMAT_IDS, type LabelFormatId } from '../../contract/label-layout.ts'
import { SelectField } from './SelectField.tsx'

const NAMES: Record<LabelFormatId, MessageDescriptor> = {
  'a4-sheet': msg`A4 sheet, 24 tags of 45 mm`,
  'avery-l7160': msg`Avery L7160, A4 sheets of 21 labels of 63.5 × 38.1 mm`,
  'brother-62x29': msg`Brother 62 mm roll, labels 62 × 29 mm`,
  'dymo-11352': msg`Dymo 11352, labels 54 × 25 mm`,
}

/** The label media a print goes on (tags, hooks, boards): one of the formats of `contract/label-layout.ts`. */
export function LabelFormatField({
  value,
  onChange,
}: {
  value: LabelFormatId
  onChange: (format: LabelFormatId) => void
}) {
  const { i18n } = useLingui()
  return (
    <SelectField
      label={<Trans>Label format</Trans>}
      name="label-format"
      value={value}
      options={LABEL_FORMAT_IDS.map((id) => ({ value: id, label: i18n._(NAMES[id]) }))}
      onChange={(next) => onChange(next as LabelFormatId)}
    />
  )
}
