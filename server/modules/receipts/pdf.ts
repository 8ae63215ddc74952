import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import type { Locale } from '../../../contract/locale.ts'
import { SIGNATURE_BOX } from '../../../contract/receipts.ts'
import type { TransferReceiptRow } from '../../db/schema.ts'
import { formatCalendarDay } from '../../i18n/format.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import type { SignedHead } from '../activity/signed-head.ts'
import { photoProblem } from './photo.ts'

export const receiptPdfTexts = {
  title: /*i18n*/ { id: 'receipt.pdf.title', message: 'Handover receipt' },
  statement: /*i18n*/ {
    id: 'receipt.pdf.statement',
    message: '{recipient} received the keychain “{keychain}” of {organization} and accepted it.',
  },
  organization: /*i18n*/ { id: 'receipt.pdf.organization', message: 'Organization' },
  keychain: /*i18n*/ { id: 'receipt.pdf.keychain', message: 'Keychain' },
  keys: /*i18n*/ { id: 'receipt.pdf.keys', message: 'Keys' },
  noKeys: /*i18n*/ { id: 'receipt.pdf.noKeys', message: 'No key' },
  tag: /*i18n*/ { id: 'receipt.pdf.tag', message: 'tag' },
  key: /*i18n*/ { id: 'receipt.pdf.key', message: 'key' },
  window: /*i18n*/ { id: 'receipt.pdf.window', message: 'Window' },
  windowValue: /*i18n*/ { id: 'receipt.pdf.windowValue', message: 'from {from}, due back {to}' },
  recipient: /*i18n*/ { id: 'receipt.pdf.recipient', message: 'Received by' },
  handedOverBy: /*i18n*/ { id: 'receipt.pdf.handedOverBy', message: 'Handed over by' },
  nobody: /*i18n*/ { id: 'receipt.pdf.nobody', message: 'The organization' },
  acceptedAt: /*i18n*/ { id: 'receipt.pdf.acceptedAt', message: 'Accepted' },
  recordedAt: /*i18n*/ { id: 'receipt.pdf.recordedAt', message: 'Recorded by the server' },
  fromQueue: /*i18n*/ {
    id: 'receipt.pdf.fromQueue',
    message: 'accepted offline, sent when the network returned',
  },
  typedName: /*i18n*/ { id: 'receipt.pdf.typedName', message: 'Typed name' },
  signature: /*i18n*/ { id: 'receipt.pdf.signature', message: 'Signature' },
  photo: /*i18n*/ { id: 'receipt.pdf.photo', message: 'Photo of the keys' },
  photoLeftOut: /*i18n*/ {
    id: 'receipt.pdf.photoLeftOut',
    message: 'A photo was taken, in a JPEG format this PDF cannot hold.',
  },
  reference: /*i18n*/ { id: 'receipt.pdf.reference', message: 'Receipt {id}' },
  ledger: /*i18n*/ { id: 'receipt.pdf.ledger', message: 'Ledger' },
  ledgerValue: /*i18n*/ {
    id: 'receipt.pdf.ledgerValue',
    message: 'entry {seq} of the activity log, hash {fingerprint}…, signed by the server on {at}',
  },
  ledgerHead: /*i18n*/ {
    id: 'receipt.pdf.ledgerHead',
    message: 'Signed head, to check an export of the log against (npm run verify:activity):',
  },
} satisfies Record<string, MessageDescriptor>

const INTL: Record<Locale, string> = { fr: 'fr-FR', en: 'en-GB' }

/** An instant as the reader's language writes it, in the organization's time zone. */
export function formatInstant(locale: Locale, instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat(INTL[locale], { dateStyle: 'long', timeStyle: 'short', timeZone }).format(
    instant,
  )
}

/**
 * The standard PDF fonts write WinAnsi only: a character outside it is written as its letter without accents
 * where that is one (ł stays a question mark), never an error that would lose the receipt's mail.
 */
function writable(font: PDFFont, text: string): string {
  let out = ''
  for (const char of text.replace(/\s+/g, ' ')) {
    try {
      font.encodeText(char)
      out += char
    } catch {
      const base = char.normalize('NFD').replace(/\p{M}/gu, '')
      try {
        font.encodeText(base)
        out += base
      } catch {
        out += '?'
      }
    }
  }
  return out
}

/** Lines of at most `width` points. */
function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word
    if (line && font.widthOfTextAtSize(next, size) > width) {
      lines.push(line)
      line = word
    } else line = next
  }
  if (line) lines.push(line)
  return lines
}

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 56
const LABEL_WIDTH = 150

/**
 * The receipt as a one-page A4 PDF in `locale` (the recipient's): what was handed over, the window, both
 * parties, the times, the typed name, the drawn signature (vector) and the photo.
 */
export async function renderReceiptPdf(
  receipt: TransferReceiptRow,
  locale: Locale,
  timeZone: string,
  /** The ledger's head as of the receipt: the entry that recorded it, signed (`signedHeadOfReceipt`). */
  head: SignedHead | null = null,
): Promise<Uint8Array> {
  const i18n = translator(locale)
  const t = (descriptor: MessageDescriptor, values: Record<string, string> = {}) =>
    i18n._({ ...descriptor, values })
  const m = receiptPdfTexts
  const { details } = receipt
  const pdf = await PDFDocument.create()
  const title = t(m.title)
  pdf.setTitle(`${title} — ${details.keychain.name}`)
  pdf.setLanguage(locale)
  pdf.setCreator('Trousseau')
  pdf.setProducer('Trousseau')
  pdf.setCreationDate(receipt.serverTime)
  pdf.setModificationDate(receipt.serverTime)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  let page: PDFPage = pdf.addPage([A4.width, A4.height])
  let y = A4.height - MARGIN
  const room = (height: number) => {
    if (y - height >= MARGIN) return
    page = pdf.addPage([A4.width, A4.height])
    y = A4.height - MARGIN
  }
  const text = (value: string, x: number, size: number, font: PDFFont, width: number) => {
    const lines = wrap(font, size, writable(font, value), width)
    for (const line of lines) {
      room(size * 1.4)
      page.drawText(line, { x, y: y - size, size, font, color: rgb(0.1, 0.12, 0.16) })
      y -= size * 1.4
    }
  }
  const field = (label: string, value: string) => {
    const top = y
    text(label, MARGIN, 10, bold, LABEL_WIDTH - 10)
    const labelBottom = y
    y = top
    text(value, MARGIN + LABEL_WIDTH, 10, regular, A4.width - 2 * MARGIN - LABEL_WIDTH)
    y = Math.min(y, labelBottom) - 4
  }
  const person = (who: { name: string; email: string } | null) =>
    who ? (who.name === who.email ? who.email : `${who.name} <${who.email}>`) : t(m.nobody)

  text(title, MARGIN, 20, bold, A4.width - 2 * MARGIN)
  y -= 6
  text(
    t(m.statement, {
      recipient: details.recipient.name,
      keychain: details.keychain.name,
      organization: details.organization.name,
    }),
    MARGIN,
    11,
    regular,
    A4.width - 2 * MARGIN,
  )
  y -= 10
  field(t(m.organization), details.organization.name)
  field(t(m.keychain), details.keychain.name)
  field(
    t(m.keys),
    details.keys.length === 0
      ? t(m.noKeys)
      : details.keys.map((key) => `${key.name} (${t(key.type === 'TAG' ? m.tag : m.key)})`).join(', '),
  )
  field(
    t(m.window),
    t(m.windowValue, {
      from: formatCalendarDay(locale, details.fromDate),
      to: formatCalendarDay(locale, details.toDate),
    }),
  )
  field(t(m.recipient), person(details.recipient))
  field(t(m.handedOverBy), person(details.handedOverBy))
  const accepted = formatInstant(locale, receipt.acceptedAt, timeZone)
  field(t(m.acceptedAt), receipt.fromQueue ? `${accepted} (${t(m.fromQueue)})` : accepted)
  field(t(m.recordedAt), formatInstant(locale, receipt.serverTime, timeZone))
  if (receipt.typedName) field(t(m.typedName), receipt.typedName)
  if (receipt.signature) {
    const scale = 0.55
    const height = SIGNATURE_BOX.height * scale
    room(height + 30)
    text(t(m.signature), MARGIN, 10, bold, LABEL_WIDTH)
    page.drawRectangle({
      x: MARGIN,
      y: y - height - 4,
      width: SIGNATURE_BOX.width * scale,
      height,
      borderColor: rgb(0.8, 0.82, 0.86),
      borderWidth: 0.5,
    })
    // SVG coordinates grow downwards; pdf-lib flips them from the top-left corner given here.
    page.drawSvgPath(receipt.signature, {
      x: MARGIN,
      y: y - 4,
      scale,
      borderColor: rgb(0.05, 0.1, 0.3),
      borderWidth: 2 / scale,
    })
    y -= height + 14
  }
  // A photo stored before the upload checked that a PDF can hold it: named, not embedded, so the receipt is made.
  if (receipt.photo && photoProblem(receipt.photo)) field(t(m.photo), t(m.photoLeftOut))
  else if (receipt.photo) {
    // A copy: pdf-lib reads the bytes' whole `buffer`, and `pg` hands out slices of a shared one.
    const image = await pdf.embedJpg(new Uint8Array(receipt.photo))
    const fitted = image.scaleToFit(280, 280)
    room(fitted.height + 30)
    text(t(m.photo), MARGIN, 10, bold, LABEL_WIDTH)
    page.drawImage(image, { x: MARGIN, y: y - fitted.height - 4, ...fitted })
    y -= fitted.height + 14
  }
  if (head) {
    const at = formatInstant(locale, new Date(head.signedAt), timeZone)
    field(t(m.ledger), t(m.ledgerValue, { seq: String(head.seq), fingerprint: head.hash.slice(0, 16), at }))
    // The head's four lines stay together.
    room(50)
    text(t(m.ledgerHead), MARGIN, 8, regular, A4.width - 2 * MARGIN)
    text(head.token, MARGIN, 8, regular, A4.width - 2 * MARGIN)
    y -= 6
  }
  room(20)
  text(t(m.reference, { id: receipt.id }), MARGIN, 8, regular, A4.width - 2 * MARGIN)
  return pdf.save()
}
