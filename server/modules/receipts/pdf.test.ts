// The receipt's PDF as a reader gets it: read back by Mozilla's pdf.js (text, lines, pages) and pdf-lib (metadata).
import { PDFDocument, PDFName, type PDFString } from 'pdf-lib'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import { ID, jpegWith, receipt, TINY_JPEG } from '../../../tests/server/receipt-pdf-fixture.ts'
import type { TransferReceiptRow } from '../../db/schema.ts'
import { formatInstant, renderReceiptPdf } from './pdf.ts'

type Line = { text: string; page: number; x: number; y: number; width: number }

/** Every text item of the PDF (one per line drawn), with its page and position. */
async function read(bytes: Uint8Array): Promise<{ lines: Line[]; pages: number; text: string }> {
  const document = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 })
    .promise
  const lines: Line[] = []
  for (let n = 1; n <= document.numPages; n += 1) {
    const content = await (await document.getPage(n)).getTextContent()
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue
      lines.push({ text: item.str, page: n, x: item.transform[4], y: item.transform[5], width: item.width })
    }
  }
  const pages = document.numPages
  await document.destroy()
  return { lines, pages, text: lines.map((line) => line.text).join(' ') }
}

const render = async (changes: Partial<TransferReceiptRow> = {}, locale: 'en' | 'fr' = 'en', zone = 'UTC') =>
  read(await renderReceiptPdf(receipt(changes), locale, zone))

describe('renderReceiptPdf()', () => {
  it('writes, line by line, what was handed over, the window, both parties and the times, in English', async () => {
    const { lines, pages } = await render({}, 'en', 'Europe/Paris')
    expect(pages).toBe(1)
    expect(lines.map((line) => line.text)).toEqual([
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
      'Signature',
      `Receipt ${ID}`,
    ])
    // Labels in the left column, values beside them on the same line.
    const at = (text: string) => lines.find((line) => line.text === text)!
    expect(at('Organization').x).toBeCloseTo(56)
    expect(at('Agence').x).toBeCloseTo(206)
    expect(at('Agence').y).toBeCloseTo(at('Organization').y)
    expect(at('Keychain').y).toBeLessThan(at('Organization').y)
    expect(at('Handover receipt').y).toBeCloseTo(841.89 - 56 - 20)
  })

  it('writes it in French, the window and the times in French words', async () => {
    const { text } = await render({ fromQueue: true, typedName: 'Zoé Martin' }, 'fr', 'Europe/Paris')
    for (const part of [
      'Reçu de remise',
      'Zoé Martin a reçu le trousseau « Cave » de Agence et l’a accepté.',
      'Porte (étiquette), Boîte (clé)',
      'à partir du 15 janvier 2030, à rendre le 17 janvier 2030',
      'Accepté le 15 janvier 2030 à 09:00 (accepté hors ligne, envoyé au retour du réseau)',
      'Enregistré par le serveur le 15 janvier 2030 à 09:30',
      'Nom saisi Zoé Martin',
      `Reçu ${ID}`,
    ]) {
      expect(text).toContain(part)
    }
  })

  it('says when it was accepted offline, the typed name when there is one, and no signature without one', async () => {
    const { text } = await render({ fromQueue: true, typedName: 'Z. Martin', signature: null })
    expect(text).toContain(
      'Accepted 15 January 2030 at 08:00 (accepted offline, sent when the network returned)',
    )
    expect(text).toContain('Typed name Z. Martin')
    expect(text).not.toContain('Signature')
    expect(text).not.toContain('Photo of the keys')
    expect((await render()).text).not.toContain('Typed name')
  })

  it('names the organization when nobody handed it over, a person known only by their address once, no key', async () => {
    const base = receipt().details
    const { text } = await render({
      details: {
        ...base,
        keys: [],
        recipient: { ...base.recipient, name: 'zoe@example.test' },
        handedOverBy: null,
      },
    })
    expect(text).toContain('Keys No key')
    expect(text).toContain('Received by zoe@example.test Handed over by The organization')
  })

  it('writes a letter the standard fonts lack without its accent, or as a question mark, and spaces as one', async () => {
    const base = receipt().details
    const { text } = await render({
      details: { ...base, keychain: { ...base.keychain, name: 'Ősz\n\tkulcs  Łódź' } },
    })
    expect(text).toContain('Keychain Osz kulcs ?ódz')
  })

  it('wraps a long value within its column, and goes on to a second page when the first is full', async () => {
    const base = receipt().details
    const keys = Array.from({ length: 120 }, (_, n) => ({ name: `Clef numéro ${n + 1}`, type: 'KEY' }))
    const { lines, pages, text } = await render({
      details: { ...base, keys },
      photo: Buffer.from(TINY_JPEG, 'base64'),
    })
    expect(pages).toBe(2)
    const values = lines.filter((line) => line.x > 200 && line.text.includes('Clef'))
    expect(values.length).toBeGreaterThan(10)
    for (const line of values) expect(line.width).toBeLessThanOrEqual(595.28 - 2 * 56 - 150 + 2) // pdf.js measures a little wider
    expect(text).toContain(keys.map((key) => `${key.name} (key)`).join(', '))
    // Each page keeps its margins; the reference is the last line, on the last page.
    for (const line of lines) expect(line.y).toBeGreaterThanOrEqual(56)
    expect(lines.at(-1)).toMatchObject({ text: `Receipt ${ID}`, page: 2 })
    expect(lines.find((line) => line.text === 'Photo of the keys')?.page).toBe(2)
    expect(lines.filter((line) => line.page === 2)[0]!.y).toBeCloseTo(841.89 - 56 - 10, 0)
  })

  it('names a stored photo it cannot hold rather than embedding it, in the reader’s language', async () => {
    const bytes = async (photo: Uint8Array) => renderReceiptPdf(receipt({ photo }), 'en', 'UTC')
    // Five components: pdf-lib throws; 12-bit: pdf-lib embeds it, and readers cannot draw it.
    for (const photo of [jpegWith({ components: 5 }), jpegWith({ precision: 12 })]) {
      const pdf = await bytes(photo)
      expect((await read(pdf)).text).toContain(
        'Photo of the keys A photo was taken, in a JPEG format this PDF cannot hold.',
      )
      expect(Buffer.from(pdf).includes('/DCTDecode')).toBe(false)
    }
    expect(Buffer.from(await bytes(jpegWith())).includes('/DCTDecode')).toBe(true)
    const { text } = await render({ photo: jpegWith({ components: 5 }) }, 'fr')
    expect(text).toContain('Une photo a été prise, dans un format JPEG que ce PDF ne peut pas contenir.')
  })

  it('carries its title, language, maker and dates', async () => {
    const bytes = await renderReceiptPdf(receipt(), 'fr', 'UTC')
    const document = await PDFDocument.load(bytes, { updateMetadata: false })
    expect(document.getTitle()).toBe('Reçu de remise — Cave')
    expect(document.getCreator()).toBe('Trousseau')
    expect(document.getProducer()).toBe('Trousseau')
    expect(document.getCreationDate()).toEqual(new Date('2030-01-15T08:30:00.000Z'))
    expect(document.getModificationDate()).toEqual(new Date('2030-01-15T08:30:00.000Z'))
    expect((document.catalog.lookup(PDFName.of('Lang')) as PDFString).decodeText()).toBe('fr')
    expect(document.getPageCount()).toBe(1)
    expect(document.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 })
  })
})

describe('formatInstant()', () => {
  it('writes an instant in the language and the time zone given', () => {
    const instant = new Date('2030-01-15T08:00:00.000Z')
    expect(formatInstant('en', instant, 'America/New_York')).toBe('15 January 2030 at 03:00')
    expect(formatInstant('fr', instant, 'Europe/Paris')).toBe('15 janvier 2030 à 09:00')
  })
})
