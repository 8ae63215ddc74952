// Label media and where each element of a tag's label goes on it, in millimetres from the top left corner of
// the page (or of the label). One source for the server's PDF and the browser's print view, so both print the
// same thing. Pure arithmetic: imports nothing.

export const LABEL_FORMAT_IDS = ['a4-sheet', 'avery-l7160', 'brother-62x29', 'dymo-11352'] as const
export type LabelFormatId = (typeof LABEL_FORMAT_IDS)[number]

/** The QR specification's quiet zone: at least 4 modules of background on every side of the symbol. */
export const QR_QUIET_MODULES = 4

export type LabelFormat = {
  id: LabelFormatId
  /** The page (the sheet, or one label of a roll) in mm. */
  page: { width: number; height: number }
  /** One label in mm. */
  label: { width: number; height: number }
  columns: number
  rows: number
  /** The top left corner of the first label on the page, in mm. */
  origin: { left: number; top: number }
  /** From a label's top left corner to the next one's, across and down, in mm. */
  pitch: { x: number; y: number }
  /** Blank band inside the label's edge (cutting tolerance, a printer's unprintable margin), in mm. */
  padding: number
  /** QR beside the text (landscape labels) or above it (square cells). */
  arrangement: 'side' | 'stacked'
  /** Whether the tag's colours are printed: thermal roll printers print black on white only. */
  colours: boolean
}

/**
 * The media we lay out for. Sizes from the makers' specifications:
 * - `a4-sheet`: the order's A4 sheet, 4 × 6 square cells of 45 mm with 3 mm between them, centred on the page.
 * - `avery-l7160`: Avery L7160, A4, 3 × 7 labels of 63.5 × 38.1 mm, top margin 15.15 mm, side margin 7.25 mm,
 *   horizontal pitch 66.04 mm (2.54 mm gaps), vertical pitch 38.1 mm (no gap).
 * - `brother-62x29`: Brother 62 mm continuous tape (DK-22205) cut at 29 mm, one label per tag and per page of
 *   62 × 29 mm: the length of the die-cut DK-11209 labels, so the same file prints on both rolls. The QL printers'
 *   unprintable side margins (about 1.5 mm) sit inside the 3 mm padding.
 * - `dymo-11352`: Dymo LabelWriter 11352 return address labels, 25 × 54 mm, printed landscape: one label per
 *   page of 54 × 25 mm.
 */
export const LABEL_FORMATS: Record<LabelFormatId, LabelFormat> = {
  'a4-sheet': {
    id: 'a4-sheet',
    page: { width: 210, height: 297 },
    label: { width: 45, height: 45 },
    columns: 4,
    rows: 6,
    origin: { left: 10.5, top: 6 },
    pitch: { x: 48, y: 48 },
    padding: 2,
    arrangement: 'stacked',
    colours: true,
  },
  'avery-l7160': {
    id: 'avery-l7160',
    page: { width: 210, height: 297 },
    label: { width: 63.5, height: 38.1 },
    columns: 3,
    rows: 7,
    origin: { left: 7.25, top: 15.15 },
    pitch: { x: 66.04, y: 38.1 },
    padding: 2,
    arrangement: 'side',
    colours: true,
  },
  'brother-62x29': {
    id: 'brother-62x29',
    page: { width: 62, height: 29 },
    label: { width: 62, height: 29 },
    columns: 1,
    rows: 1,
    origin: { left: 0, top: 0 },
    pitch: { x: 62, y: 29 },
    padding: 3,
    arrangement: 'side',
    colours: false,
  },
  'dymo-11352': {
    id: 'dymo-11352',
    page: { width: 54, height: 25 },
    label: { width: 54, height: 25 },
    columns: 1,
    rows: 1,
    origin: { left: 0, top: 0 },
    pitch: { x: 54, y: 25 },
    padding: 2,
    arrangement: 'side',
    colours: false,
  },
}

const MM_PER_POINT = 25.4 / 72
export const mmToPoints = (mm: number) => mm / MM_PER_POINT

export type Box = { x: number; y: number; width: number; height: number }

/** Where the `index`th label of a run falls: its page (from 0) and its box on that page, in mm. */
export function labelSlot(format: LabelFormat, index: number): { page: number; box: Box } {
  const perPage = format.columns * format.rows
  const slot = index % perPage
  const column = slot % format.columns
  const row = Math.floor(slot / format.columns)
  return {
    page: Math.floor(index / perPage),
    box: {
      x: format.origin.left + column * format.pitch.x,
      y: format.origin.top + row * format.pitch.y,
      width: format.label.width,
      height: format.label.height,
    },
  }
}

export const pageCount = (format: LabelFormat, labels: number) =>
  Math.ceil(labels / (format.columns * format.rows))

/** The share of a stacked label's height given to its text under the QR. */
const STACKED_TEXT_SHARE = 0.24
/** Space between the QR's quiet zone and the text, in mm (the quiet zone is blank already; this is air). */
const TEXT_GAP = 0.5

export type LabelLayout = {
  /** The QR symbol with its quiet zone: a blank square the text never enters. */
  qrZone: Box
  /** The side of one module, in mm. */
  module: number
  /** The dark modules' area: `qrZone` less `QR_QUIET_MODULES` modules on every side. */
  symbol: Box
  /** Where the code (large) and the name (small, under it) are written. */
  text: Box
  /** Type sizes in mm (cap height is about 0.72 of them): the most they may be; the renderer shrinks to fit. */
  codeSize: number
  nameSize: number
}

/**
 * One label's layout, in mm from the label's top left corner, for a QR symbol of `modules` × `modules` (without
 * its quiet zone). The QR zone is the largest square that fits inside the padding (beside or above the text), so
 * its quiet zone of 4 modules lies inside the label and touches no other element.
 */
export function layoutLabel(format: LabelFormat, modules: number): LabelLayout {
  const { width, height } = format.label
  const inner = format.padding
  let qrSide: number
  let qrZone: Box
  let text: Box
  if (format.arrangement === 'side') {
    qrSide = height - 2 * inner
    qrZone = { x: inner, y: inner, width: qrSide, height: qrSide }
    const textLeft = inner + qrSide + TEXT_GAP
    text = { x: textLeft, y: inner, width: width - inner - textLeft, height: height - 2 * inner }
  } else {
    const textHeight = height * STACKED_TEXT_SHARE
    qrSide = Math.min(width - 2 * inner, height - 2 * inner - textHeight - TEXT_GAP)
    qrZone = { x: (width - qrSide) / 2, y: inner, width: qrSide, height: qrSide }
    text = { x: inner, y: inner + qrSide + TEXT_GAP, width: width - 2 * inner, height: textHeight }
  }
  const module = qrSide / (modules + 2 * QR_QUIET_MODULES)
  const quiet = QR_QUIET_MODULES * module
  const symbol = {
    x: qrZone.x + quiet,
    y: qrZone.y + quiet,
    width: modules * module,
    height: modules * module,
  }
  // The code on one line, the name under it: sizes from the text box's height, capped for wide boxes.
  const codeSize = Math.min(text.height * 0.42, 7)
  const nameSize = Math.min(codeSize * 0.55, 3.5)
  return { qrZone, module, symbol, text, codeSize, nameSize }
}
