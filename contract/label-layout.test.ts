import { describe, expect, it } from 'vitest'
import {
  type Box,
  LABEL_FORMAT_IDS,
  LABEL_FORMATS,
  labelSlot,
  layoutLabel,
  mmToPoints,
  pageCount,
  QR_QUIET_MODULES,
} from './label-layout.ts'

const inside = (inner: Box, outer: Box, tolerance = 1e-9) =>
  inner.x >= outer.x - tolerance &&
  inner.y >= outer.y - tolerance &&
  inner.x + inner.width <= outer.x + outer.width + tolerance &&
  inner.y + inner.height <= outer.y + outer.height + tolerance
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 1e-9 &&
  b.x < a.x + a.width - 1e-9 &&
  a.y < b.y + b.height - 1e-9 &&
  b.y < a.y + a.height - 1e-9

describe('label formats', () => {
  it('states the Avery L7160 sheet as Avery does: 3 × 7 labels of 63.5 × 38.1 mm on A4', () => {
    const avery = LABEL_FORMATS['avery-l7160']
    expect(avery.page).toEqual({ width: 210, height: 297 })
    expect(labelSlot(avery, 0).box).toEqual({ x: 7.25, y: 15.15, width: 63.5, height: 38.1 })
    const last = labelSlot(avery, 20)
    expect(last.page).toBe(0)
    expect(last.box.x).toBeCloseTo(7.25 + 2 * 66.04)
    expect(last.box.y).toBeCloseTo(15.15 + 6 * 38.1)
    // Symmetric: the right and bottom margins match the left and top ones within a tenth of a millimetre.
    expect(210 - (last.box.x + last.box.width)).toBeCloseTo(7.17, 2)
    expect(297 - (last.box.y + last.box.height)).toBeCloseTo(15.15, 2)
    expect(labelSlot(avery, 21)).toEqual({ page: 1, box: labelSlot(avery, 0).box })
    expect(pageCount(avery, 21)).toBe(1)
    expect(pageCount(avery, 22)).toBe(2)
  })

  it('puts one label on each page of a roll, at the roll’s size', () => {
    expect(LABEL_FORMATS['brother-62x29'].page).toEqual({ width: 62, height: 29 })
    expect(LABEL_FORMATS['dymo-11352'].page).toEqual({ width: 54, height: 25 })
    for (const id of ['brother-62x29', 'dymo-11352'] as const) {
      const format = LABEL_FORMATS[id]
      expect(labelSlot(format, 3)).toEqual({ page: 3, box: { x: 0, y: 0, ...format.page } })
      expect(pageCount(format, 5)).toBe(5)
    }
  })

  it('converts millimetres to PDF points (A4 is 595.28 × 841.89 pt)', () => {
    expect(mmToPoints(210)).toBeCloseTo(595.28, 2)
    expect(mmToPoints(297)).toBeCloseTo(841.89, 2)
  })

  for (const id of LABEL_FORMAT_IDS) {
    const format = LABEL_FORMATS[id]
    it(`${id}: every label on the page, none overlapping another`, () => {
      const page = { x: 0, y: 0, ...format.page }
      const boxes = Array.from({ length: format.columns * format.rows }, (_, i) => labelSlot(format, i).box)
      for (const box of boxes) expect(inside(box, page)).toBe(true)
      for (let a = 0; a < boxes.length; a += 1)
        for (let b = a + 1; b < boxes.length; b += 1) expect(overlap(boxes[a]!, boxes[b]!)).toBe(false)
    })

    for (const modules of [21, 29, 33, 37]) {
      it(`${id}, ${modules} modules: a quiet zone of 4 modules inside the label, apart from the text`, () => {
        const layout = layoutLabel(format, modules)
        const label = { x: 0, y: 0, ...format.label }
        const padded = {
          x: format.padding,
          y: format.padding,
          width: label.width - 2 * format.padding,
          height: label.height - 2 * format.padding,
        }
        const quiet = QR_QUIET_MODULES * layout.module
        // The symbol is the zone less 4 modules on each side…
        expect(layout.symbol.x - layout.qrZone.x).toBeCloseTo(quiet)
        expect(layout.symbol.y - layout.qrZone.y).toBeCloseTo(quiet)
        expect(layout.qrZone.x + layout.qrZone.width - (layout.symbol.x + layout.symbol.width)).toBeCloseTo(
          quiet,
        )
        expect(layout.qrZone.y + layout.qrZone.height - (layout.symbol.y + layout.symbol.height)).toBeCloseTo(
          quiet,
        )
        expect(layout.symbol.width).toBeCloseTo(modules * layout.module)
        // …the zone lies inside the label's padding, and the text never enters it.
        expect(inside(layout.qrZone, padded)).toBe(true)
        expect(inside(layout.text, padded)).toBe(true)
        expect(overlap(layout.qrZone, layout.text)).toBe(false)
        // Modules big enough for a phone camera at arm's length (≥ 0.4 mm) and a code at least 3 mm high.
        expect(layout.module).toBeGreaterThanOrEqual(0.4)
        expect(layout.codeSize).toBeGreaterThanOrEqual(3)
      })
    }
  }
})
