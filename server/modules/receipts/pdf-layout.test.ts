// The receipt's layout as a person reads it on paper: every line and drawing read back by pdf.js (text, the
// signature's frame and ink, the photo), then checked for what a reader needs rather than for positions: it stays
// inside the page's margins, nothing overlaps, it reads top to bottom in order, fields are set apart, a block
// (a label and its drawing) never splits across pages, the signature keeps its shape and the photo its proportions.
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import { SIGNATURE_BOX } from '../../../contract/receipts.ts'
import { ID, receipt, SIGNATURE, TINY_JPEG } from '../../../tests/server/receipt-pdf-fixture.ts'
import type { TransferReceiptRow } from '../../db/schema.ts'
import { renderReceiptPdf } from './pdf.ts'

const PAGE = { width: 595.28, height: 841.89, margin: 56 }
/** Helvetica's ascender and descender (its AFM), in ems: how far a line's letters reach above and below it. */
const ASCENT = 0.718
const DESCENT = 0.207
/** pdf.js's `DrawOPS.closePath` in a path's data (not exported): the signature's frame is a closed rectangle. */
const CLOSE_PATH = 4

type Kind = 'text' | 'frame' | 'ink' | 'photo'
type Box = {
  kind: Kind
  text: string
  page: number
  left: number
  right: number
  bottom: number
  top: number
  /** Text: its font size. Ink: its stroke's width on the page. */
  size: number
}

type Matrix = [number, number, number, number, number, number]
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0]
/** `m` applied first, then `ctm` (PDF's `cm`). */
const times = (m: Matrix, ctm: Matrix): Matrix => [
  m[0] * ctm[0] + m[1] * ctm[2],
  m[0] * ctm[1] + m[1] * ctm[3],
  m[2] * ctm[0] + m[3] * ctm[2],
  m[2] * ctm[1] + m[3] * ctm[3],
  m[4] * ctm[0] + m[5] * ctm[2] + ctm[4],
  m[4] * ctm[1] + m[5] * ctm[3] + ctm[5],
]
/** The page box of a rectangle of user space under `ctm`. */
function onPage(ctm: Matrix, [x0, y0, x1, y1]: number[]) {
  const corners = [
    [x0!, y0!],
    [x0!, y1!],
    [x1!, y0!],
    [x1!, y1!],
  ].map(([x, y]) => [ctm[0] * x! + ctm[2] * y! + ctm[4], ctm[1] * x! + ctm[3] * y! + ctm[5]])
  const xs = corners.map(([x]) => x!)
  const ys = corners.map(([, y]) => y!)
  return { left: Math.min(...xs), right: Math.max(...xs), bottom: Math.min(...ys), top: Math.max(...ys) }
}

/** Every line of text and every drawing of the PDF, with its page and its box on the page. */
async function layout(bytes: Uint8Array): Promise<{ boxes: Box[]; pages: number }> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
    .promise
  const boxes: Box[] = []
  for (let n = 1; n <= document.numPages; n += 1) {
    const page = await document.getPage(n)
    for (const item of (await page.getTextContent()).items) {
      if (!('str' in item) || item.str.trim() === '') continue
      const [size, , , , x, baseline] = item.transform as number[]
      boxes.push({
        kind: 'text',
        text: item.str,
        page: n,
        left: x!,
        right: x! + item.width,
        bottom: baseline! - DESCENT * size!,
        top: baseline! + ASCENT * size!,
        size: size!,
      })
    }
    const { fnArray, argsArray } = await page.getOperatorList()
    let ctm = IDENTITY
    let lineWidth = 1
    const saved: Array<[Matrix, number]> = []
    fnArray.forEach((fn, i) => {
      const args = argsArray[i]
      if (fn === OPS.save) saved.push([ctm, lineWidth])
      else if (fn === OPS.restore) [ctm, lineWidth] = saved.pop()!
      else if (fn === OPS.transform) ctm = times(args as Matrix, ctm)
      else if (fn === OPS.setLineWidth) lineWidth = args[0]
      else if (fn === OPS.constructPath) {
        const [, [data], minMax] = args as [number, [Float32Array], Float32Array]
        const kind = data.at(-1) === CLOSE_PATH ? 'frame' : 'ink'
        const size = lineWidth * Math.hypot(ctm[0], ctm[1])
        boxes.push({ kind, text: kind, page: n, size, ...onPage(ctm, [...minMax]) })
      } else if (fn === OPS.paintImageXObject) {
        boxes.push({ kind: 'photo', text: 'photo', page: n, size: 0, ...onPage(ctm, [0, 0, 1, 1]) })
      }
    })
  }
  const pages = document.numPages
  await document.destroy()
  return { boxes, pages }
}

const render = async (changes: Partial<TransferReceiptRow> = {}, locale: 'en' | 'fr' = 'en') =>
  layout(await renderReceiptPdf(receipt(changes), locale, 'Europe/Paris'))

/** The 1 × 1 JPEG's frame header made 8 × 4 (still one 8 × 8 block of pixels): a photo twice as wide as high. */
const WIDE_JPEG = (() => {
  const bytes = Buffer.from(TINY_JPEG, 'base64')
  const frame = bytes.findIndex((byte, i) => byte === 0xff && bytes[i + 1] === 0xc2)
  bytes.writeUInt16BE(4, frame + 5)
  bytes.writeUInt16BE(8, frame + 7)
  return bytes
})()

const keys = (count: number) =>
  Array.from({ length: count }, (_, n) => ({ name: `Clef numéro ${n + 1}`, type: 'KEY' }))
const full = (keyCount: number) => {
  const base = receipt().details
  return {
    details: { ...base, keys: keys(keyCount) },
    typedName: 'Zoé Martin',
    photo: WIDE_JPEG,
  } satisfies Partial<TransferReceiptRow>
}

const overlap = (a: Box, b: Box) =>
  a.page === b.page && a.left < b.right && b.left < a.right && a.bottom < b.top && b.bottom < a.top
const inside = (inner: Box, outer: Box) =>
  inner.page === outer.page &&
  inner.left >= outer.left &&
  inner.right <= outer.right &&
  inner.bottom >= outer.bottom &&
  inner.top <= outer.top
const describeBox = (box: Box) => `${box.kind} “${box.text}” on page ${box.page}`
/** Reading order: page by page, top to bottom, then left to right on one line. */
const reading = (boxes: Box[]) =>
  [...boxes].sort((a, b) => a.page - b.page || b.top - a.top || a.left - b.left)

/** What every receipt must be on paper, whatever its content and wherever its pages break. */
function expectReadable(boxes: Box[]) {
  for (const box of boxes) {
    expect(box.left, describeBox(box)).toBeGreaterThanOrEqual(PAGE.margin - 0.01)
    expect(box.right, describeBox(box)).toBeLessThanOrEqual(PAGE.width - PAGE.margin + 2) // pdf.js measures text a little wider
    expect(box.bottom, describeBox(box)).toBeGreaterThanOrEqual(PAGE.margin - 0.01)
    expect(box.top, describeBox(box)).toBeLessThanOrEqual(PAGE.height - PAGE.margin + 0.01)
  }
  const frame = boxes.find((box) => box.kind === 'frame')
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      // The ink is drawn in its frame, and only there.
      if (a.kind === 'ink' || b.kind === 'ink') continue
      expect(overlap(a, b), `${describeBox(a)} overlaps ${describeBox(b)}`).toBe(false)
    }
  }
  for (const ink of boxes.filter((box) => box.kind === 'ink')) {
    expect(frame && inside(ink, frame), 'the signature stays in its frame').toBe(true)
  }
  // A drawing comes right under its label, on the same page.
  const order = reading(boxes)
  for (const [label, drawing] of [
    ['Signature', 'frame'],
    ['Photo of the keys', 'photo'],
  ] as const) {
    const at = order.findIndex((box) => box.text === label)
    if (at < 0) continue
    expect(order[at + 1]?.kind, `${label} is followed by its ${drawing}`).toBe(drawing)
    expect(order[at + 1]?.page, `${label} is on its ${drawing}’s page`).toBe(order[at]!.page)
  }
  // The reference closes the receipt.
  expect(order.at(-1)?.text).toBe(`Receipt ${ID}`)
}

const texts = (boxes: Box[]) => boxes.filter((box) => box.kind === 'text')
/** The white space between a line and the next one below it. */
const gap = (above: Box, below: Box) => above.bottom - below.top

describe('the receipt on paper', () => {
  it('reads top to bottom: title, statement, fields, signature, photo, reference, all inside the margins', async () => {
    const { boxes, pages } = await render({ typedName: 'Zoé Martin', photo: WIDE_JPEG })
    expect(pages).toBe(1)
    expectReadable(boxes)
    expect(reading(boxes).map((box) => box.text)).toEqual([
      'Handover receipt',
      'Zoé Martin received the keychain “Cave” of Agence and accepted it.',
      'Organization',
      'Agence',
      'Keychain',
      'Cave',
      'Keys',
      'Porte (tag), Boîte (key)',
      'Window',
      'from 15 January 2030, due back 17 January 2030',
      'Received by',
      'Zoé Martin <zoe@example.test>',
      'Handed over by',
      'Hélène Dupont <helene@example.test>',
      'Accepted',
      '15 January 2030 at 09:00',
      'Recorded by the server',
      '15 January 2030 at 09:30',
      'Typed name',
      'Zoé Martin',
      'Signature',
      'frame',
      'ink',
      'Photo of the keys',
      'photo',
      `Receipt ${ID}`,
    ])
  })

  it('sets the fields apart more than the lines of one field, and the title and statement more still', async () => {
    const base = receipt().details
    const long = 'Agence immobilière des quatre saisons du quartier de la gare et des environs'
    const { boxes } = await render({
      details: { ...base, organization: { ...base.organization, name: long }, keys: keys(12) },
    })
    expectReadable(boxes)
    const lines = reading(texts(boxes))
    const statement = lines.filter((line) => line.size === 11)
    const keyLines = lines.filter((line) => line.text.includes('Clef'))
    expect(statement.length).toBeGreaterThan(1)
    expect(keyLines.length).toBeGreaterThan(1)
    // One paragraph's lines: evenly spaced, apart (no descender touches the next line's capitals).
    const withinStatement = gap(statement[0]!, statement[1]!)
    const withinKeys = gap(keyLines[0]!, keyLines[1]!)
    expect(withinKeys).toBeGreaterThan(0)
    for (const [a, b] of keyLines.slice(1).map((line, i) => [keyLines[i]!, line] as const)) {
      expect(gap(a, b)).toBeCloseTo(withinKeys, 5)
    }
    // Two fields: more space between them than between the lines of one.
    const label = (text: string) => lines.find((line) => line.text === text)!
    const window = label('Window')
    expect(gap(keyLines.at(-1)!, window)).toBeGreaterThan(withinKeys)
    expect(gap(label('Cave'), label('Keys'))).toBeGreaterThan(withinKeys)
    // The title, the statement and the fields: three blocks, each set apart more than a paragraph's lines.
    expect(gap(lines[0]!, statement[0]!)).toBeGreaterThan(withinStatement)
    expect(gap(statement.at(-1)!, label('Organization'))).toBeGreaterThan(withinStatement)
    // A label stays level with the first line of its value, the value's other lines below it.
    expect(label('Keys').top).toBeCloseTo(keyLines[0]!.top, 5)
  })

  it('draws the signature in a frame of the pad’s proportions, the ink where it was drawn, a pen’s width', async () => {
    const { boxes } = await render()
    const frame = boxes.find((box) => box.kind === 'frame')!
    const ink = boxes.filter((box) => box.kind === 'ink')
    const width = frame.right - frame.left
    expect(width / (frame.top - frame.bottom)).toBeCloseTo(SIGNATURE_BOX.width / SIGNATURE_BOX.height, 3)
    // Legible on paper: at least a third of the text column wide.
    expect(width).toBeGreaterThan((PAGE.width - 2 * PAGE.margin) / 3)
    // SIGNATURE's strokes span x 10…300 and y 50…150 of the 600 × 200 pad, y growing downwards.
    expect(SIGNATURE).toBe('M10 150 L40 60 L80 140 L120 50 M150 100 L300 100')
    const scale = width / SIGNATURE_BOX.width
    expect(ink).toHaveLength(1)
    expect(ink[0]!.left).toBeCloseTo(frame.left + 10 * scale, 3)
    expect(ink[0]!.right).toBeCloseTo(frame.left + 300 * scale, 3)
    expect(ink[0]!.top).toBeCloseTo(frame.top - 50 * scale, 3)
    expect(ink[0]!.bottom).toBeCloseTo(frame.top - 150 * scale, 3)
    // A pen's line when printed: neither a hairline nor a marker.
    for (const stroke of ink) {
      expect(stroke.size).toBeGreaterThanOrEqual(1)
      expect(stroke.size).toBeLessThanOrEqual(3)
    }
  })

  it('keeps the photo’s proportions, within the text column', async () => {
    const { boxes } = await render({ photo: WIDE_JPEG })
    const photo = boxes.find((box) => box.kind === 'photo')!
    const width = photo.right - photo.left
    expect(width / (photo.top - photo.bottom)).toBeCloseTo(2, 5)
    expect(width).toBeGreaterThan(100)
    expect(width).toBeLessThanOrEqual(PAGE.width - 2 * PAGE.margin)
  })

  it('stays readable wherever the first page ends: no block split, nothing beyond the margins', async () => {
    // A line and a half more of keys each time (about two keys a line): the first page ends before the
    // reference, the photo, the signature, then in the fields in turn.
    const seen = new Set<string>()
    for (let count = 48; count <= 138; count += 3) {
      const { boxes, pages } = await render(full(count))
      expect(pages).toBeGreaterThanOrEqual(2)
      expectReadable(boxes)
      const order = reading(boxes)
      // Nothing is lost or repeated at the break: the keys, read in order, are all there once.
      const keyText = order
        .slice(
          order.findIndex((box) => box.text === 'Keys') + 1,
          order.findIndex((box) => box.text === 'Window'),
        )
        .map((box) => box.text)
        .join(' ')
      expect(keyText).toBe(
        keys(count)
          .map((key) => `${key.name} (key)`)
          .join(', '),
      )
      // The next page starts at its top margin.
      const second = order.find((box) => box.page === 2)!
      expect(second.top).toBeGreaterThan(PAGE.height - PAGE.margin - 12)
      seen.add(`${second.kind}:${second.text.startsWith('Clef') ? 'keys' : second.text}`)
    }
    // The sweep did move the break across the blocks it is about.
    expect([...seen]).toEqual(
      expect.arrayContaining([
        'text:Typed name',
        'text:Signature',
        'text:Photo of the keys',
        `text:Receipt ${ID}`,
      ]),
    )
  }, 60_000)
})
