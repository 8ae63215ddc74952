import { Trans, useLingui } from '@lingui/react/macro'
import { createPortal } from 'react-dom'
import { encode } from 'uqr'
import {
  type Box,
  LABEL_FORMATS,
  type LabelFormat,
  labelSlot,
  layoutLabel,
  QR_QUIET_MODULES,
} from '../../contract/label-layout.ts'
import type { Label, LabelSheet } from '../../contract/labels.ts'
import { Button } from './Button.tsx'

const mm = (value: number) => `${value}mm`
const at = (box: Box) => ({ left: mm(box.x), top: mm(box.y), width: mm(box.width), height: mm(box.height) })

/**
 * One label drawn as the server's PDF draws it (the same layout, `contract/label-layout.ts`): the QR symbol inside
 * its zone of 4 blank modules, the code and the name beside or under it, in millimetres.
 */
function PrintedLabel({
  format,
  label,
  box,
  withName,
}: {
  format: LabelFormat
  label: Label
  box: Box
  withName: boolean
}) {
  const { data } = encode(label.url, { ecc: 'M', border: 0 })
  const modules = data.length
  const layout = layoutLabel(format, modules)
  let path = ''
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`
    })
  })
  // Thermal roll printers print black on white only: the PDF leaves the colours out for them, and so does this.
  const foreground = format.colours ? label.foregroundColor : '#000000'
  const background = format.colours ? label.backgroundColor : '#ffffff'
  const zone = modules + 2 * QR_QUIET_MODULES
  const stacked = format.arrangement === 'stacked'
  const line = 'block overflow-hidden text-ellipsis whitespace-nowrap'
  return (
    <div
      data-label={label.code}
      className="absolute overflow-hidden"
      style={{ ...at(box), color: foreground, backgroundColor: background }}
    >
      <svg
        role="img"
        aria-label={label.code}
        data-qr-value={label.url}
        className="absolute"
        style={at(layout.qrZone)}
        viewBox={`${-QR_QUIET_MODULES} ${-QR_QUIET_MODULES} ${zone} ${zone}`}
        shapeRendering="crispEdges"
      >
        <rect x={-QR_QUIET_MODULES} y={-QR_QUIET_MODULES} width={zone} height={zone} fill={background} />
        <path data-qr-symbol="" d={path} fill={foreground} />
      </svg>
      <div
        className={`absolute flex flex-col leading-none ${stacked ? 'items-center text-center' : 'justify-center'}`}
        style={{ ...at(layout.text), gap: mm(layout.nameSize * 0.5) }}
      >
        <span className={`${line} max-w-full font-bold`} style={{ fontSize: mm(layout.codeSize) }}>
          {label.code}
        </span>
        {withName && label.name.trim() ? (
          <span className={`${line} max-w-full`} style={{ fontSize: mm(layout.nameSize) }}>
            {label.name}
          </span>
        ) : null}
      </div>
    </div>
  )
}

/**
 * The browser's print view of a reprint: each page of the media (an A4 sheet, or one label of a roll) at its real
 * size, `@page` set to it with no margin, and only the pages printed. Print at 100 % ("actual size").
 */
export default function LabelSheetView({
  sheet,
  withName,
  onClose,
}: {
  sheet: LabelSheet
  withName: boolean
  onClose: () => void
}) {
  const { t } = useLingui()
  const format = LABEL_FORMATS[sheet.format]
  const pages: { label: Label; box: Box }[][] = []
  sheet.labels.forEach((label, index) => {
    const slot = labelSlot(format, index)
    pages[slot.page] ??= []
    pages[slot.page]!.push({ label, box: slot.box })
  })
  const total = pages.length
  const count = sheet.labels.length
  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      aria-label={t`Print view`}
      className="label-print fixed inset-0 z-50 overflow-auto bg-slate-100 p-6 print:static print:overflow-visible print:bg-white print:p-0"
    >
      <style>
        {`@page { size: ${mm(format.page.width)} ${mm(format.page.height)}; margin: 0 }
@media print { body > :not(.label-print) { display: none !important } .label-page { break-after: page; margin: 0 !important; box-shadow: none !important } }`}
      </style>
      <div className="mb-4 flex flex-wrap items-center gap-3 print:hidden">
        <Button onPress={() => window.print()}>
          <Trans>Print</Trans>
        </Button>
        <Button variant="secondary" onPress={onClose}>
          <Trans>Close the print view</Trans>
        </Button>
        <p className="text-sm text-slate-700">
          <Trans>
            {count} labels on {total} pages. In the print dialog, choose the actual size (100 %) and no
            margins.
          </Trans>
        </p>
      </div>
      {pages
        .map((page, index) => ({ page, number: index + 1 }))
        .map(({ page, number }) => (
          <section
            key={number}
            aria-label={t`Page ${number} of ${total}`}
            className="label-page relative mx-auto mb-6 bg-white shadow-md"
            style={{ width: mm(format.page.width), height: mm(format.page.height) }}
          >
            {page.map(({ label, box }) => (
              <PrintedLabel key={label.id} format={format} label={label} box={box} withName={withName} />
            ))}
          </section>
        ))}
    </div>,
    document.body,
  )
}
