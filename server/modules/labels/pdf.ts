import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import { encode } from 'uqr'
import {
  type Box,
  LABEL_FORMATS,
  type LabelFormatId,
  labelSlot,
  layoutLabel,
  mmToPoints,
} from '../../../contract/label-layout.ts'
import type { Label } from '../../../contract/labels.ts'

/** The QR matrix of a tag's URL, without its quiet zone (the layout adds it): ECC M, as the screens draw it. */
export function qrMatrix(url: string): boolean[][] {
  return encode(url, { ecc: 'M', border: 0 }).data
}

/**
 * SVG path data of the dark modules, one rectangle per horizontal run, in module units from the symbol's top
 * left corner: drawn as vectors, the code prints sharp at any size.
 */
export function modulePath(matrix: boolean[][]): string {
  let path = ''
  matrix.forEach((row, y) => {
    let x = 0
    while (x < row.length) {
      if (!row[x]) {
        x += 1
        continue
      }
      const start = x
      while (x < row.length && row[x]) x += 1
      path += `M${start} ${y}h${x - start}v1h${start - x}z`
    }
  })
  return path
}

const colour = (hex: string, fallback: [number, number, number]) => {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex)
  const [r, g, b] = match ? match.slice(1).map((part) => Number.parseInt(part, 16) / 255) : fallback
  return rgb(r!, g!, b!)
}

/** WinAnsi only (the standard fonts): a character outside it loses its accents, or becomes "?". */
function writable(font: PDFFont, text: string): string {
  let out = ''
  for (const char of text.replace(/\s+/g, ' ')) {
    for (const candidate of [char, char.normalize('NFD').replace(/\p{M}/gu, ''), '?']) {
      try {
        font.encodeText(candidate)
        out += candidate
        break
      } catch {}
    }
  }
  return out
}

/** The largest size up to `max` points at which `text` fits in `width` points, and the text (cut with … if not). */
function fitText(font: PDFFont, text: string, max: number, min: number, width: number) {
  const size = Math.max(min, Math.min(max, (max * width) / Math.max(font.widthOfTextAtSize(text, max), 1)))
  let shown = text
  while (shown.length > 1 && font.widthOfTextAtSize(shown, size) > width)
    shown = `${shown.slice(0, -2).trimEnd()}…`
  return { text: shown, size }
}

type Fonts = { bold: PDFFont; regular: PDFFont }

/** One label at `box` (mm from the page's top left corner) on a page `pageHeight` mm high. */
function drawLabel(
  page: PDFPage,
  fonts: Fonts,
  label: Label,
  box: Box,
  pageHeight: number,
  options: { colours: boolean; withName: boolean; formatId: LabelFormatId },
) {
  const format = LABEL_FORMATS[options.formatId]
  const matrix = qrMatrix(label.url)
  const layout = layoutLabel(format, matrix.length)
  // PDF space: points, y upwards from the page's bottom.
  const atX = (mm: number) => mmToPoints(box.x + mm)
  const atY = (mm: number) => mmToPoints(pageHeight - box.y - mm)
  const foreground = options.colours ? colour(label.foregroundColor, [0, 0, 0]) : rgb(0, 0, 0)
  if (options.colours)
    page.drawRectangle({
      x: atX(0),
      y: atY(box.height),
      width: mmToPoints(box.width),
      height: mmToPoints(box.height),
      color: colour(label.backgroundColor, [1, 1, 1]),
    })
  page.drawSvgPath(modulePath(matrix), {
    x: atX(layout.symbol.x),
    y: atY(layout.symbol.y),
    scale: mmToPoints(layout.module),
    color: foreground,
    borderWidth: 0,
  })
  const text = layout.text
  const width = mmToPoints(text.width)
  const code = fitText(fonts.bold, writable(fonts.bold, label.code), mmToPoints(layout.codeSize), 4, width)
  const nameText = options.withName ? writable(fonts.regular, label.name).trim() : ''
  const name = nameText
    ? fitText(fonts.regular, nameText, mmToPoints(layout.nameSize), 3, width)
    : { text: '', size: 0 }
  const lineGap = name.text ? name.size * 0.5 : 0
  const blockHeight = code.size * 0.72 + (name.text ? lineGap + name.size * 0.72 : 0)
  const stacked = format.arrangement === 'stacked'
  // Side: the block centred in the text box's height; stacked: at the top of the box, under the QR.
  const top = stacked ? atY(text.y) - 1 : atY(text.y) - (mmToPoints(text.height) - blockHeight) / 2
  const left = (line: { text: string; size: number }, font: PDFFont) =>
    stacked ? atX(text.x) + (width - font.widthOfTextAtSize(line.text, line.size)) / 2 : atX(text.x)
  page.drawText(code.text, {
    x: left(code, fonts.bold),
    y: top - code.size * 0.72,
    size: code.size,
    font: fonts.bold,
    color: foreground,
  })
  if (name.text)
    page.drawText(name.text, {
      x: left(name, fonts.regular),
      y: top - blockHeight,
      size: name.size,
      font: fonts.regular,
      color: foreground,
    })
}

/**
 * The labels as a PDF whose pages are the media exactly (A4 sheets, or one 62 × 29 / 54 × 25 mm page per label
 * of a roll). It holds the codes, names and QR codes only: no text to translate.
 */
export async function renderLabelsPdf(
  formatId: LabelFormatId,
  labels: Label[],
  options: { withName: boolean },
): Promise<Uint8Array> {
  const format = LABEL_FORMATS[formatId]
  const document = await PDFDocument.create()
  document.setTitle(`Trousseau: ${labels.length} ${formatId} labels`)
  document.setCreator('Trousseau')
  const fonts = {
    bold: await document.embedFont(StandardFonts.HelveticaBold),
    regular: await document.embedFont(StandardFonts.Helvetica),
  }
  const size: [number, number] = [mmToPoints(format.page.width), mmToPoints(format.page.height)]
  let page: PDFPage | undefined
  let pageIndex = -1
  labels.forEach((label, index) => {
    const slot = labelSlot(format, index)
    if (slot.page !== pageIndex) {
      page = document.addPage(size)
      pageIndex = slot.page
    }
    drawLabel(page!, fonts, label, slot.box, format.page.height, {
      colours: format.colours,
      withName: options.withName,
      formatId,
    })
  })
  return document.save()
}
