import { eq } from 'drizzle-orm'
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib'
import type { HandoverReceipt } from '../../../contract/handover.ts'
import type { Locale } from '../../../contract/locale.ts'
import type { Db } from '../../db/client.ts'
import { type HandoverRow, organizations } from '../../db/schema.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import { formatInstant } from '../receipts/pdf.ts'
import { handoverReceiptTexts as m } from './texts.ts'

const A4 = { width: 595.28, height: 841.89 }
const MARGIN = 48
const INK = rgb(0.1, 0.12, 0.16)
const MUTED = rgb(0.4, 0.42, 0.46)

/** The standard fonts write WinAnsi only: other characters lose their accents, or become a question mark. */
function writable(font: PDFFont, text: string): string {
  let out = ''
  for (const char of text.replace(/\s+/g, ' ')) {
    out += [char, char.normalize('NFD').replace(/\p{M}/gu, ''), '?'].find((each) => {
      try {
        font.encodeText(each)
        return true
      } catch {
        return false
      }
    })
  }
  return out
}

/** Lines of at most `width` points: at spaces for text, anywhere for a code (it has none). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = []
  let line = ''
  for (const char of text) {
    if (font.widthOfTextAtSize(line + char, size) > width) {
      const cut = line.lastIndexOf(' ')
      lines.push(cut > 0 ? line.slice(0, cut) : line)
      line = cut > 0 ? line.slice(cut + 1) : ''
    }
    line += char
  }
  if (line) lines.push(line)
  return lines
}

/**
 * `GET /handovers/{id}/receipt.pdf`: an A4 page (pdf-lib, standard fonts) in the reader's language saying who
 * handed what to whom and when, with the signed codes and the server's signature printed whole: the JSON
 * receipt says the same, and is what `npm run verify-handover` checks.
 */
export async function handoverReceiptPdf(
  db: Db,
  row: HandoverRow,
  receipt: HandoverReceipt,
  locale: Locale,
): Promise<Uint8Array> {
  const [organization] = await db
    .select({ name: organizations.name, timeZone: organizations.timeZone })
    .from(organizations)
    .where(eq(organizations.id, row.organizationId))
  const timeZone = organization?.timeZone ?? 'Europe/Paris'
  const i18n = translator(locale)
  const t = (descriptor: MessageDescriptor, values: Record<string, unknown> = {}) =>
    i18n._({ ...descriptor, values })
  const instant = (at: Date) => formatInstant(locale, at, timeZone)

  const pdf = await PDFDocument.create()
  pdf.setTitle(t(m.title))
  pdf.setLanguage(locale)
  pdf.setCreator('Trousseau')
  pdf.setProducer('Trousseau')
  pdf.setCreationDate(row.receivedAt)
  pdf.setModificationDate(row.receivedAt)
  const regular = await pdf.embedFont(StandardFonts.Helvetica)
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
  const mono = await pdf.embedFont(StandardFonts.Courier)
  let page: PDFPage = pdf.addPage([A4.width, A4.height])
  let y = A4.height - MARGIN
  const write = (text: string, size: number, font: PDFFont, color = INK) => {
    for (const line of wrap(font, writable(font, text), size, A4.width - 2 * MARGIN)) {
      if (y - size * 1.4 < MARGIN) {
        page = pdf.addPage([A4.width, A4.height])
        y = A4.height - MARGIN
      }
      page.drawText(line, { x: MARGIN, y: y - size, size, font, color })
      y -= size * 1.4
    }
  }
  const field = (label: MessageDescriptor, value: string) => {
    write(t(label), 9, regular, MUTED)
    write(value, 11, regular)
    y -= 4
  }

  const { record } = receipt
  write(t(m.title), 20, bold)
  write(organization?.name ?? '', 11, regular, MUTED)
  y -= 10
  write(
    t(m.statement, {
      giver: record.giverName,
      receiver: record.receiverName,
      keychain: record.keychainName,
      organization: organization?.name ?? '',
    }),
    12,
    regular,
  )
  y -= 10
  field(m.keychain, record.keychainName)
  field(m.giver, record.giverName)
  field(m.receiver, record.receiverName)
  field(m.offeredAt, instant(row.offeredAt))
  field(m.acceptedAt, instant(row.acceptedAt))
  field(m.appliedAt, instant(row.receivedAt))
  field(m.ledger, t(m.ledgerValue, { seq: record.eventSeq }))
  y -= 8
  write(t(m.reference, { id: receipt.handoverId }), 9, regular, MUTED)
  y -= 6
  write(t(m.offer), 9, regular, MUTED)
  write(receipt.offer, 8, mono)
  y -= 4
  write(t(m.acceptance), 9, regular, MUTED)
  write(receipt.acceptance, 8, mono)
  y -= 4
  write(t(m.server, { keyId: receipt.server.keyId }), 9, regular, MUTED)
  write(receipt.server.signature, 8, mono)
  y -= 10
  write(t(m.check), 9, regular, MUTED)
  return pdf.save()
}
