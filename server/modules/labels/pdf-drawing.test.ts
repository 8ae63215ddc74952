// What the label PDF draws, read back from its pages' content streams: where each label's background, QR
// modules, code and name are, in which colour, font and size. The layout (contract/label-layout.ts) says where
// each element may go; these tests check that the PDF puts it there, module for module and point for point.
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  type PDFFont,
  PDFName,
  type PDFPage,
  type PDFRawStream,
  StandardFonts,
} from 'pdf-lib'
import { encode } from 'uqr'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  LABEL_FORMAT_IDS,
  LABEL_FORMATS,
  type LabelFormatId,
  labelSlot,
  layoutLabel,
  mmToPoints,
} from '../../../contract/label-layout.ts'
import type { Label } from '../../../contract/labels.ts'
import { renderLabelsPdf } from './pdf.ts'

type Rgb = [number, number, number]
type Rect = { left: number; right: number; bottom: number; top: number }
type Fill = { colour: Rgb; shapes: Rect[] }
type Text = { font: string; size: number; x: number; y: number; colour: Rgb; text: string }
type Matrix = [number, number, number, number, number, number]

/** `m` applied first, then `ctm` (PDF's `cm`). */
const times = (m: Matrix, ctm: Matrix): Matrix => [
  m[0] * ctm[0] + m[1] * ctm[2],
  m[0] * ctm[1] + m[1] * ctm[3],
  m[2] * ctm[0] + m[3] * ctm[2],
  m[2] * ctm[1] + m[3] * ctm[3],
  m[4] * ctm[0] + m[5] * ctm[2] + ctm[4],
  m[4] * ctm[1] + m[5] * ctm[3] + ctm[5],
]

const winAnsi = new TextDecoder('windows-1252')

/** The fonts' base names by resource name, from the page's resources. */
function fontNames(page: PDFPage): Map<string, string> {
  const fonts = page.node.Resources()?.lookup(PDFName.of('Font'), PDFDict)
  const names = new Map<string, string>()
  for (const [key, ref] of fonts?.entries() ?? []) {
    const font = page.doc.context.lookup(ref, PDFDict)
    names.set(key.asString(), font.lookup(PDFName.of('BaseFont'), PDFName).asString().slice(1))
  }
  return names
}

/** Every fill (its colour and closed shapes, in page points) and every text run of one page, in drawing order. */
function pageDrawing(page: PDFPage): { fills: Fill[]; texts: Text[] } {
  const contents = page.node.Contents()
  const streams =
    contents instanceof PDFArray ? contents.asArray().map((ref) => page.doc.context.lookup(ref)) : [contents]
  const source = streams
    .map((stream) => new TextDecoder('latin1').decode(decodePDFRawStream(stream as PDFRawStream).decode()))
    .join('\n')
  const fonts = fontNames(page)
  const fills: Fill[] = []
  const texts: Text[] = []
  let ctm: Matrix = [1, 0, 0, 1, 0, 0]
  let colour: Rgb = [0, 0, 0]
  const saved: Array<[Matrix, Rgb]> = []
  let points: Array<[number, number]> = []
  let shapes: Rect[] = []
  let font = ''
  let size = 0
  let textAt: [number, number] = [0, 0]
  let operands: string[] = []
  const number = (index: number) => Number(operands.at(index))
  for (const token of source.split(/\s+/).filter(Boolean)) {
    if (
      /^[-+.\d]/.test(token) ||
      token.startsWith('/') ||
      token.startsWith('<') ||
      token === '[' ||
      token === ']'
    ) {
      operands.push(token)
      continue
    }
    if (token === '[]') {
      operands.push(token)
      continue
    }
    switch (token) {
      case 'q':
        saved.push([ctm, colour])
        break
      case 'Q':
        ;[ctm, colour] = saved.pop()!
        break
      case 'cm':
        ctm = times([0, 1, 2, 3, 4, 5].map((n) => number(n - 6)) as Matrix, ctm)
        break
      case 'rg':
        colour = [number(-3), number(-2), number(-1)]
        break
      case 'm':
      case 'l': {
        const [x, y] = [number(-2), number(-1)]
        points.push([ctm[0] * x + ctm[2] * y + ctm[4], ctm[1] * x + ctm[3] * y + ctm[5]])
        break
      }
      case 'h': {
        const xs = points.map(([x]) => x)
        const ys = points.map(([, y]) => y)
        shapes.push({
          left: Math.min(...xs),
          right: Math.max(...xs),
          bottom: Math.min(...ys),
          top: Math.max(...ys),
        })
        points = []
        break
      }
      case 'f':
        fills.push({ colour, shapes })
        shapes = []
        break
      case 'Tf':
        font = fonts.get(operands.at(-2)!)!
        size = number(-1)
        break
      case 'Tm':
        textAt = [number(-2), number(-1)]
        break
      case 'Tj': {
        const hex = operands.at(-1)!.slice(1, -1)
        const bytes = Uint8Array.from(hex.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16))
        texts.push({ font, size, x: textAt[0], y: textAt[1], colour, text: winAnsi.decode(bytes) })
        break
      }
    }
    operands = []
  }
  return { fills, texts }
}

async function read(bytes: Uint8Array) {
  const document = await PDFDocument.load(bytes)
  return { document, pages: document.getPages().map(pageDrawing) }
}

/** Helvetica's widths, to measure what the PDF wrote. */
let bold: PDFFont
let regular: PDFFont
beforeAll(async () => {
  const measuring = await PDFDocument.create()
  bold = await measuring.embedFont(StandardFonts.HelveticaBold)
  regular = await measuring.embedFont(StandardFonts.Helvetica)
})
const widthOf = (text: Text) =>
  (text.font === 'Helvetica-Bold' ? bold : regular).widthOfTextAtSize(text.text, text.size)

/** Where a box of the label (mm from the label's corner) lies on the page, in points. */
function onPage(
  formatId: LabelFormatId,
  index: number,
  box: { x: number; y: number; width: number; height: number },
) {
  const format = LABEL_FORMATS[formatId]
  const { box: slot } = labelSlot(format, index)
  const pageHeight = format.page.height
  return {
    left: mmToPoints(slot.x + box.x),
    right: mmToPoints(slot.x + box.x + box.width),
    top: mmToPoints(pageHeight - slot.y - box.y),
    bottom: mmToPoints(pageHeight - slot.y - box.y - box.height),
  }
}

const hex = (rgb: Rgb) =>
  `#${rgb
    .map((part) =>
      Math.round(part * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`

const CLOSE = 6 // digits after the point: the PDF writes its numbers in full

function label(n: number, overrides: Partial<Label> = {}): Label {
  const code = `LBL-${String(n).padStart(5, '0')}`
  return {
    id: `id-${n}`,
    code,
    name: `Cave ${n}`,
    url: `https://keys.example/tags/${String(n).padStart(20, 'q')}`,
    foregroundColor: `#${(17 * (n % 5)).toString(16).padStart(2, '0')}2233`,
    backgroundColor: `#ffee${(10 * (n % 7)).toString(16).padStart(2, '0')}`,
    ...overrides,
  }
}

/** The dark modules a fill draws, as a matrix, reading its shapes against the symbol's place and module size. */
function modulesOf(fill: Fill, formatId: LabelFormatId, index: number, modules: number): boolean[][] {
  const layout = layoutLabel(LABEL_FORMATS[formatId], modules)
  const symbol = onPage(formatId, index, layout.symbol)
  const side = mmToPoints(layout.module)
  const grid = Array.from({ length: modules }, () => Array<boolean>(modules).fill(false))
  const offGrid: Rect[] = []
  const twice: Array<[number, number]> = []
  const whole = (value: number) => Math.abs(value - Math.round(value)) < 1e-6
  for (const shape of fill.shapes) {
    const column = (shape.left - symbol.left) / side
    const row = (symbol.top - shape.top) / side
    const width = (shape.right - shape.left) / side
    const height = (shape.top - shape.bottom) / side
    if (!whole(column) || !whole(row) || !whole(width) || Math.abs(height - 1) > 1e-6) offGrid.push(shape)
    for (let x = Math.round(column); x < Math.round(column + width); x += 1) {
      const line = grid[Math.round(row)]
      if (line?.[x] !== false) twice.push([Math.round(row), x])
      else line[x] = true
    }
  }
  // Every shape is a run of whole modules, one module high, and no module is drawn twice or outside the symbol.
  expect(offGrid).toEqual([])
  expect(twice).toEqual([])
  return grid
}

describe('the label PDF, drawn', () => {
  for (const formatId of LABEL_FORMAT_IDS) {
    it(`${formatId}: each label's background, QR (ECC M, module for module), code and name in their places and colours`, async () => {
      const format = LABEL_FORMATS[formatId]
      const perPage = format.columns * format.rows
      const labels = Array.from({ length: perPage + 1 }, (_, n) => label(n + 1))
      const { document, pages } = await read(await renderLabelsPdf(formatId, labels, { withName: true }))
      expect(document.getPageCount()).toBe(2)
      for (const page of document.getPages()) {
        expect(page.getWidth()).toBeCloseTo(mmToPoints(format.page.width), CLOSE)
        expect(page.getHeight()).toBeCloseTo(mmToPoints(format.page.height), CLOSE)
      }
      expect(pages.map((page) => page.texts.length)).toEqual([2 * perPage, 2])
      expect(pages.map((page) => page.fills.length)).toEqual(format.colours ? [2 * perPage, 2] : [perPage, 1])
      labels.forEach((each, index) => {
        const { page } = labelSlot(format, index)
        const slot = index % perPage
        const drawing = pages[page]!
        const matrix = encode(each.url, { ecc: 'M', border: 0 }).data
        const layout = layoutLabel(format, matrix.length)
        const foreground: Rgb = format.colours
          ? [Number.parseInt(each.foregroundColor.slice(1, 3), 16) / 255, 0x22 / 255, 0x33 / 255]
          : [0, 0, 0]
        // The background: the whole label, in the tag's background colour (thermal rolls print none).
        const fills = format.colours ? drawing.fills.slice(2 * slot, 2 * slot + 2) : [drawing.fills[slot]!]
        if (format.colours) {
          const [background] = fills
          expect(hex(background!.colour)).toBe(each.backgroundColor)
          expect(background!.shapes).toHaveLength(1)
          const whole = onPage(formatId, index, { x: 0, y: 0, ...format.label })
          for (const side of ['left', 'right', 'top', 'bottom'] as const)
            expect(background!.shapes[0]![side]).toBeCloseTo(whole[side], CLOSE)
        }
        const qr = fills.at(-1)!
        expect(qr.colour.map((part) => part.toFixed(6))).toEqual(foreground.map((part) => part.toFixed(6)))
        expect(modulesOf(qr, formatId, index, matrix.length)).toEqual(matrix)
        // The code (bold) then the name (regular), in the foreground colour, inside the text box.
        const [code, name] = drawing.texts.slice(2 * slot, 2 * slot + 2)
        expect(code).toMatchObject({ font: 'Helvetica-Bold', text: each.code })
        expect(name).toMatchObject({ font: 'Helvetica', text: each.name })
        for (const text of [code!, name!])
          expect(text.colour.map((part) => part.toFixed(6))).toEqual(
            foreground.map((part) => part.toFixed(6)),
          )
        const box = onPage(formatId, index, layout.text)
        const boxWidth = box.right - box.left
        // Each at the largest size up to the layout's at which it fits the box's width.
        for (const [text, most] of [
          [code!, mmToPoints(layout.codeSize)],
          [name!, mmToPoints(layout.nameSize)],
        ] as const) {
          expect(text.size).toBeLessThanOrEqual(most + 1e-9)
          expect(widthOf(text)).toBeLessThanOrEqual(boxWidth + 1e-6)
          if (text.size < most - 1e-9) expect(widthOf(text)).toBeCloseTo(boxWidth, CLOSE)
        }
        // The name's capitals start half its size under the code's baseline (cap height: 0.72 of a size).
        expect(code!.y - (name!.y + 0.72 * name!.size)).toBeCloseTo(0.5 * name!.size, CLOSE)
        if (format.arrangement === 'stacked') {
          // Under the QR: each line centred across the box, the code's capitals 1 pt under its top.
          for (const text of [code!, name!])
            expect(text.x + widthOf(text) / 2).toBeCloseTo((box.left + box.right) / 2, CLOSE)
          expect(code!.y + 0.72 * code!.size).toBeCloseTo(box.top - 1, CLOSE)
        } else {
          // Beside the QR: both lines from the box's left edge, the block centred in the box's height.
          expect(code!.x).toBeCloseTo(box.left, CLOSE)
          expect(name!.x).toBeCloseTo(box.left, CLOSE)
          expect(box.top - (code!.y + 0.72 * code!.size)).toBeCloseTo(name!.y - box.bottom, CLOSE)
        }
      })
    })
  }

  it('without names: the code alone, centred in the side box’s height, at its full size when it fits', async () => {
    for (const formatId of LABEL_FORMAT_IDS) {
      const format = LABEL_FORMATS[formatId]
      const short = label(1, { code: 'A-1' })
      const { pages } = await read(await renderLabelsPdf(formatId, [short], { withName: false }))
      expect(pages[0]!.texts).toHaveLength(1)
      const [code] = pages[0]!.texts
      const layout = layoutLabel(format, encode(short.url, { ecc: 'M', border: 0 }).data.length)
      const box = onPage(formatId, 0, layout.text)
      expect(code).toMatchObject({ font: 'Helvetica-Bold', text: 'A-1' })
      expect(code!.size).toBeCloseTo(mmToPoints(layout.codeSize), CLOSE)
      if (format.arrangement === 'side')
        expect(box.top - (code!.y + 0.72 * code!.size)).toBeCloseTo(code!.y - box.bottom, CLOSE)
      else expect(code!.y + 0.72 * code!.size).toBeCloseTo(box.top - 1, CLOSE)
    }
  })

  it('a name of blanks is no name; a name is written trimmed, each run of blanks as one space', async () => {
    const { pages } = await read(
      await renderLabelsPdf(
        'avery-l7160',
        [label(1, { name: ' \t \n ' }), label(2, { name: '  Cave\t\tdu \r\n fond  ' })],
        { withName: true },
      ),
    )
    expect(pages[0]!.texts.map((text) => text.text)).toEqual(['LBL-00001', 'LBL-00002', 'Cave du fond'])
  })

  it('writes what Helvetica has: accents it has kept, others stripped, anything else as "?"', async () => {
    const { pages } = await read(
      await renderLabelsPdf('dymo-11352', [label(1, { code: 'ÉTÉ-Ō1', name: 'Clé ŌŹ 東🔑' })], {
        withName: true,
      }),
    )
    expect(pages[0]!.texts.map((text) => text.text)).toEqual(['ÉTÉ-O1', 'Clé OZ ??'])
  })

  it('shrinks a long code or name down to its smallest size (4 and 3 pt), then cuts it with …', async () => {
    for (const formatId of LABEL_FORMAT_IDS) {
      const format = LABEL_FORMATS[formatId]
      const long = label(1, { code: 'W'.repeat(60), name: `Cave ${'M'.repeat(150)}` })
      const { pages } = await read(await renderLabelsPdf(formatId, [long], { withName: true }))
      const [code, name] = pages[0]!.texts
      const layout = layoutLabel(format, encode(long.url, { ecc: 'M', border: 0 }).data.length)
      const box = onPage(formatId, 0, layout.text)
      expect(code!.size).toBe(4)
      expect(name!.size).toBe(3)
      for (const [text, whole] of [
        [code!, long.code],
        [name!, long.name],
      ] as const) {
        expect(text.text.endsWith('…')).toBe(true)
        expect(whole.startsWith(text.text.slice(0, -1))).toBe(true)
        // As long as fits: one letter more would not.
        expect(widthOf(text)).toBeLessThanOrEqual(box.right - box.left + 1e-6)
        const longer = { ...text, text: `${whole.slice(0, text.text.length + 1)}…` }
        expect(widthOf(longer)).toBeGreaterThan(box.right - box.left)
      }
    }
  })

  it('a name cut just after a blank ends in its last letter, then …', async () => {
    // The blank at every place from the 1st to the 90th letter: for one of them the cut falls just after it.
    const labels = Array.from({ length: 90 }, (_, n) =>
      label(n + 1, { name: `${'M'.repeat(n + 1)} ${'M'.repeat(200)}` }),
    )
    const { pages } = await read(await renderLabelsPdf('avery-l7160', labels, { withName: true }))
    const names = pages.flatMap((page) => page.texts.filter((text) => text.font === 'Helvetica'))
    expect(names).toHaveLength(90)
    for (const name of names) expect(name.text).toMatch(/M…$/)
    // …and the cut is as long as fits: the one whose blank falls at the end is one letter shorter than its neighbours.
    const lengths = names.map((name) => name.text.length)
    expect(new Set(lengths).size).toBeGreaterThan(1)
  })

  it('reads colours in any case; a malformed one prints black on white', async () => {
    const { pages } = await read(
      await renderLabelsPdf(
        'a4-sheet',
        [
          label(1, { foregroundColor: '#0A0B0C', backgroundColor: '#FFEE00' }),
          label(2, { foregroundColor: 'x#112233', backgroundColor: '#ffee001' }),
          label(3, { foregroundColor: '#11223', backgroundColor: 'ffee00' }),
          label(4, { foregroundColor: '#1122gg', backgroundColor: '#fe0' }),
        ],
        { withName: true },
      ),
    )
    const { fills, texts } = pages[0]!
    expect(fills.map((fill) => hex(fill.colour))).toEqual([
      '#ffee00',
      '#0a0b0c',
      '#ffffff',
      '#000000',
      '#ffffff',
      '#000000',
      '#ffffff',
      '#000000',
    ])
    expect(texts.map((text) => hex(text.colour))).toEqual(['#0a0b0c', '#0a0b0c', ...Array(6).fill('#000000')])
  })

  it('names the document after its labels and format, made by Trousseau', async () => {
    const { document } = await read(
      await renderLabelsPdf('dymo-11352', [label(1), label(2)], { withName: false }),
    )
    expect(document.getTitle()).toBe('Trousseau: 2 dymo-11352 labels')
    expect(document.getCreator()).toBe('Trousseau')
    expect(document.getPageCount()).toBe(2)
  })
})
