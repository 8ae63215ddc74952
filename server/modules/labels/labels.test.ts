import { PDFDocument } from 'pdf-lib'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import {
  LABEL_FORMAT_IDS,
  LABEL_FORMATS,
  labelSlot,
  layoutLabel,
  mmToPoints,
  QR_QUIET_MODULES,
} from '../../../contract/label-layout.ts'
import { LABEL_PRINT_MAX } from '../../../contract/labels.ts'
import {
  makeKeychain,
  makeTags,
  organizationWithAdmin,
  signedInMember,
} from '../../../tests/server/fixtures.ts'
import { setupTestApp, TEST_PUBLIC_URL } from '../../../tests/server/harness.ts'
import { keys } from '../../db/schema.ts'
import { modulePath, qrMatrix } from './pdf.ts'

const t = setupTestApp()

/** The text of every page, read by Mozilla's pdf.js (an independent reader), one string per page. */
async function pageTexts(bytes: Uint8Array): Promise<string[]> {
  const document = await getDocument({ data: bytes.slice(), isEvalSupported: false, verbosity: 0 }).promise
  const texts: string[] = []
  for (let n = 1; n <= document.numPages; n += 1) {
    const content = await (await document.getPage(n)).getTextContent()
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await document.destroy()
  return texts
}

async function printPdf(cookie: string, json: unknown) {
  const response = await t.post('/api/tag-labels/pdf', { cookie, json })
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) }
}

describe('POST /tag-labels/pdf', () => {
  it('prints 22 chosen tags on 2 Avery L7160 A4 sheets (21 a sheet), each code on its page', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const tags = await makeTags(t, organization.id, 22, 'AVR')
    const { response, bytes } = await printPdf(admin.cookie, {
      format: 'avery-l7160',
      selection: { by: 'ids', ids: tags.map((tag) => tag.id) },
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    const pdf = await PDFDocument.load(bytes)
    expect(pdf.getPageCount()).toBe(2)
    for (const page of pdf.getPages()) {
      expect(page.getWidth()).toBeCloseTo(595.28, 1)
      expect(page.getHeight()).toBeCloseTo(841.89, 1)
    }
    const texts = await pageTexts(bytes)
    const codes = tags.map((tag) => tag.code).sort()
    for (const code of codes.slice(0, 21)) expect(texts[0]).toContain(code)
    expect(texts[1]).toContain(codes[21])
    expect(texts[1]).not.toContain(codes[0])
    expect(texts[0]).toContain('Test')
  })

  for (const [format, size] of [
    ['brother-62x29', [62, 29]],
    ['dymo-11352', [54, 25]],
    ['a4-sheet', [210, 297]],
  ] as const) {
    it(`${format}: pages of ${size[0]} × ${size[1]} mm, the media's size`, async () => {
      const { organization, admin } = await organizationWithAdmin(t)
      const tags = await makeTags(t, organization.id, 3, 'ROL')
      const { response, bytes } = await printPdf(admin.cookie, {
        format,
        selection: { by: 'ids', ids: tags.map((tag) => tag.id) },
        withName: false,
      })
      expect(response.status).toBe(200)
      const pdf = await PDFDocument.load(bytes)
      const rolls = format !== 'a4-sheet'
      expect(pdf.getPageCount()).toBe(rolls ? 3 : 1)
      for (const page of pdf.getPages()) {
        expect(page.getWidth()).toBeCloseTo(mmToPoints(size[0]), 2)
        expect(page.getHeight()).toBeCloseTo(mmToPoints(size[1]), 2)
      }
      const texts = await pageTexts(bytes)
      const sorted = tags.map((tag) => tag.code).sort()
      if (rolls)
        sorted.forEach((code, n) => {
          expect(texts[n]).toContain(code)
        })
      else for (const code of sorted) expect(texts[0]).toContain(code)
      expect(texts.join(' ')).not.toContain('Test')
    })
  }

  it('keeps every QR module and its quiet zone inside its label, on every format, for a real tag URL', async () => {
    const { organization } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id, 1, 'QZN')
    const matrix = qrMatrix(`${TEST_PUBLIC_URL}/tags/${tag!.publicId}`)
    // The path draws exactly the dark modules, each inside the matrix.
    const rectangles = [...modulePath(matrix).matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)]
    const dark = matrix.flat().filter(Boolean).length
    expect(rectangles.reduce((sum, [, , , width]) => sum + Number(width), 0)).toBe(dark)
    for (const [, x, y, width] of rectangles) {
      expect(Number(x) + Number(width)).toBeLessThanOrEqual(matrix.length)
      expect(Number(y)).toBeLessThan(matrix.length)
    }
    for (const id of LABEL_FORMAT_IDS) {
      const format = LABEL_FORMATS[id]
      const layout = layoutLabel(format, matrix.length)
      const quiet = QR_QUIET_MODULES * layout.module
      for (let index = 0; index < format.columns * format.rows; index += 1) {
        const { box } = labelSlot(format, index)
        // Drawn modules span the symbol; 4 modules of blank around it, and the padding, stay inside the label.
        const left = box.x + layout.symbol.x
        const top = box.y + layout.symbol.y
        const side = matrix.length * layout.module
        expect(left - quiet).toBeGreaterThanOrEqual(box.x + format.padding - 1e-9)
        expect(top - quiet).toBeGreaterThanOrEqual(box.y + format.padding - 1e-9)
        expect(left + side + quiet).toBeLessThanOrEqual(box.x + box.width - format.padding + 1e-9)
        expect(top + side + quiet).toBeLessThanOrEqual(box.y + box.height - format.padding + 1e-9)
        // …and the text starts past the quiet zone.
        const textBeside = box.x + layout.text.x >= left + side + quiet - 1e-9
        const textBelow = box.y + layout.text.y >= top + side + quiet - 1e-9
        expect(textBeside || textBelow).toBe(true)
      }
    }
  })

  it('prints every tag matching the tags list’s filter, and only those', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const wanted = await makeTags(t, organization.id, 3, 'FLT')
    const other = await makeTags(t, organization.id, 2, 'OTH')
    const keychain = await makeKeychain(t, organization.id, 'Used')
    await t.db.insert(keys).values({
      keychainId: keychain.id,
      name: 'On a key',
      type: 'TAG',
      tagId: wanted[0]!.id,
      createdAt: t.clock.now(),
    })
    const sheet = await t.post('/api/tag-labels', {
      cookie: admin.cookie,
      json: { format: 'a4-sheet', selection: { by: 'filter', q: 'flt', unused: 'true' } },
    })
    expect(sheet.status).toBe(200)
    const body = (await sheet.json()) as { format: string; labels: Array<{ code: string; url: string }> }
    expect(body.format).toBe('a4-sheet')
    expect(body.labels.map((label) => label.code)).toEqual([wanted[1]!.code, wanted[2]!.code])
    expect(body.labels[0]!.url).toBe(`${TEST_PUBLIC_URL}/tags/${wanted[1]!.publicId}`)
    const { bytes } = await printPdf(admin.cookie, { format: 'dymo-11352', selection: { by: 'filter' } })
    const texts = await pageTexts(bytes)
    expect(texts).toHaveLength(5)
    expect(texts.join(' ')).toContain(other[0]!.code)
  })

  it('answers 400 with a code and a message for an unknown format, an empty or too large selection', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    const [tag] = await makeTags(t, organization.id, 1, 'BAD')
    const ids = [tag!.id]
    const cases = [
      [{ format: 'avery-l7161', selection: { by: 'ids', ids } }, 'validation_failed', /Unknown label format/],
      [{ format: 'dymo-11352', selection: { by: 'ids', ids: [] } }, 'validation_failed', /at least one tag/],
      [
        { format: 'dymo-11352', selection: { by: 'ids', ids: Array(LABEL_PRINT_MAX + 1).fill(tag!.id) } },
        'validation_failed',
        /At most 1000 tags/,
      ],
      [
        { format: 'dymo-11352', selection: { by: 'filter', q: 'nothing-like-it' } },
        'label_selection_empty',
        /No tag/,
      ],
      [{ format: 'dymo-11352' }, 'validation_failed', /./],
    ] as const
    for (const [json, code, message] of cases) {
      const response = await t.post('/api/tag-labels/pdf', { cookie: admin.cookie, json })
      expect(response.status).toBe(400)
      const { error } = (await response.json()) as { error: { code: string; message: string } }
      expect(error.code).toBe(code)
      expect(error.message).toMatch(message)
    }
  })

  it('refuses a filter matching more than 1,000 tags with 400 label_selection_too_large', async () => {
    const { organization, admin } = await organizationWithAdmin(t)
    await makeTags(t, organization.id, LABEL_PRINT_MAX + 1, 'BIG')
    const response = await t.post('/api/tag-labels', {
      cookie: admin.cookie,
      json: { format: 'avery-l7160', selection: { by: 'filter', q: 'BIG' } },
    })
    expect(response.status).toBe(400)
    const { error } = (await response.json()) as { error: { code: string; message: string } }
    expect(error.code).toBe('label_selection_too_large')
    expect(error.message).toContain('More than 1000 tags')
  })

  it('answers 404 when a chosen tag is another organization’s, and lets every reader of tags print', async () => {
    const own = await organizationWithAdmin(t, 'Own')
    const foreign = await organizationWithAdmin(t, 'Foreign')
    const [mine] = await makeTags(t, own.organization.id, 1, 'MIN')
    const [theirs] = await makeTags(t, foreign.organization.id, 1, 'THR')
    const mixed = await printPdf(own.admin.cookie, {
      format: 'avery-l7160',
      selection: { by: 'ids', ids: [mine!.id, theirs!.id] },
    })
    expect(mixed.response.status).toBe(404)
    const single = { format: 'brother-62x29', selection: { by: 'ids', ids: [mine!.id] } }
    for (const role of ['MANAGER', 'MEMBER'] as const) {
      const member = await signedInMember(t, own.organization.id, role)
      expect((await printPdf(member.cookie, single)).response.status).toBe(200)
    }
    const contact = await signedInMember(t, own.organization.id, 'CONTACT')
    expect((await printPdf(contact.cookie, single)).response.status).toBe(403)
    expect((await t.post('/api/tag-labels/pdf', { json: single })).status).toBe(401)
  })
})
