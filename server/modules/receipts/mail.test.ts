// The receipt's mails: one job per party, each mail in its reader's language, the PDF in the recipient's.
import { randomUUID } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { describe, expect, it } from 'vitest'
import { setupTestAppAtEpoch } from '../../../tests/server/harness.ts'
import { jpegWith } from '../../../tests/server/receipt-pdf-fixture.ts'
import { scheduledTransfer } from '../../../tests/server/transfers.ts'
import { organizations, transferReceipts, users } from '../../db/schema.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { RECEIPT_MAIL_JOB, receiptMail, receiptMailHandler, receiptMailJob } from './mail.ts'

const t = setupTestAppAtEpoch({ clearMail: true })

const PDF = new Uint8Array([0x25, 0x50, 0x44, 0x46])
const mail = (changes: Partial<Parameters<typeof receiptMail>[0]> = {}) =>
  receiptMail({
    to: 'helene@example.test',
    locale: 'en',
    recipientName: 'Zoé Martin',
    isRecipient: false,
    keychainName: 'Cave',
    organizationName: 'Agence',
    acceptedAt: new Date('2030-01-15T08:00:00.000Z'),
    toDate: '2030-01-17',
    timeZone: 'Europe/Paris',
    pdf: PDF,
    pdfLocale: 'en',
    ...changes,
  })
const names = (keychainName: string, pdfLocale: 'en' | 'fr' = 'en') => {
  const { filename, unicodeFilename } = mail({ keychainName, pdfLocale }).attachments![0]!
  return [filename, unicodeFilename]
}

describe('receiptMailJob()', () => {
  it('is a receipt mail for now, of the organization, sent once per receipt and reader', () => {
    const now = new Date('2030-01-15T08:00:00.000Z')
    expect(receiptMailJob({ receiptId: 'r1', userId: 'u1' }, { now, organizationId: 'o1' })).toEqual({
      kind: 'receipt.mail',
      payload: { receiptId: 'r1', userId: 'u1' },
      runAt: now,
      now,
      organizationId: 'o1',
      dedupeKey: 'receipt:r1:u1',
    })
    expect(RECEIPT_MAIL_JOB).toBe('receipt.mail')
  })
})

describe('receiptMail()', () => {
  it('tells the giver who accepted what, when (in the zone given) and until when, with the PDF', () => {
    const message = mail()
    expect(message).toMatchObject({
      to: 'helene@example.test',
      subject: 'Handover receipt: the keychain “Cave”',
    })
    const body =
      'Zoé Martin accepted the keychain “Cave” of Agence on 15 January 2030 at 09:00. It is due back on 17 January 2030. The receipt is attached (PDF).'
    expect(message.text).toBe(`Hello,\n\n${body}\n\nThe Trousseau team`)
    expect(message.html).toContain(`<span style="display: none">${body}</span>`)
    expect(message.html).toContain('<html lang="en">')
    expect(message.attachments).toEqual([
      {
        filename: 'receipt-Cave.pdf',
        unicodeFilename: 'receipt-Cave.pdf',
        contentType: 'application/pdf',
        content: PDF,
      },
    ])
  })

  it('tells the recipient in their own words, in their language', () => {
    expect(mail({ isRecipient: true, timeZone: 'UTC' }).text).toContain(
      'You accepted the keychain “Cave” of Agence on 15 January 2030 at 08:00. It is due back on 17 January 2030. Your receipt is attached (PDF).',
    )
    const french = mail({ isRecipient: true, locale: 'fr' })
    expect(french.subject).toBe('Reçu de remise : le trousseau « Cave »')
    expect(french.text).toContain(
      'Vous avez accepté le trousseau « Cave » de Agence le 15 janvier 2030 à 09:00.',
    )
    expect(french.text.startsWith('Bonjour')).toBe(true)
  })

  it('names the file in the PDF’s language after the keychain, letters and digits only, at most 40', () => {
    expect(names('Cave', 'fr')).toEqual(['recu-Cave.pdf', 'reçu-Cave.pdf'])
    expect(names('(Cave / Nord 2)')).toEqual(['receipt-Cave-Nord-2.pdf', 'receipt-Cave-Nord-2.pdf'])
    expect(names('A'.repeat(50))).toEqual([`receipt-${'A'.repeat(40)}.pdf`, `receipt-${'A'.repeat(40)}.pdf`])
    expect(names('« »')).toEqual(['receipt-trousseau.pdf', 'receipt-trousseau.pdf'])
  })

  it('writes an accented letter without its accent in the ASCII name and as written in the UTF-8 one', () => {
    expect(names('Clés du hall', 'fr')).toEqual(['recu-Cles-du-hall.pdf', 'reçu-Clés-du-hall.pdf'])
    // Decomposed input (a Mac's file names) reads the same; ligatures and letters without a decomposition are
    // spelled out in ASCII.
    expect(names('Cle\u0301s Œuvre Straße Łódź Ærø')).toEqual([
      'receipt-Cles-OEuvre-Strasse-Lodz-AEro.pdf',
      'receipt-Clés-Œuvre-Straße-Łódź-Ærø.pdf',
    ])
    expect(names('æ œ ø Ø ł đ Đ')[0]).toBe('receipt-ae-oe-o-O-l-d-D.pdf')
    // A name in another script keeps its letters in UTF-8 only; the ASCII name falls back.
    expect(names('東京 倉庫')).toEqual(['receipt-trousseau.pdf', 'receipt-東京-倉庫.pdf'])
    // 40 letters at most, counted as letters (not UTF-16 units), and no hyphen left at the cut.
    expect(names(`${'é'.repeat(39)} x`)).toEqual([
      `receipt-${'e'.repeat(39)}.pdf`,
      `receipt-${'é'.repeat(39)}.pdf`,
    ])
    expect(names('𝔸'.repeat(45))[1]).toBe(`receipt-${'𝔸'.repeat(40)}.pdf`)
  })
})

describe('receiptMailHandler()', () => {
  const sent: MailMessage[] = []
  const handler = () =>
    receiptMailHandler({
      database: t.database,
      secret: t.deps.secret,
      clock: t.clock,
      mailer: {
        kind: 'memory',
        send: async (message) => void sent.push(message),
        close: async () => {},
      },
    })
  const job = (payload: unknown) => ({ payload }) as Parameters<ReturnType<typeof receiptMailHandler>>[0]

  it('sends nothing when the receipt or the reader is gone', async () => {
    const w = await scheduledTransfer(t)
    sent.length = 0
    await handler()(job({ receiptId: randomUUID(), userId: w.member.id }))
    expect(sent).toEqual([])
  })

  it('writes each party’s mail in their language, the time in the organization’s zone, the PDF in the recipient’s', async () => {
    const w = await scheduledTransfer(t)
    await t.db.update(users).set({ locale: 'en' }).where(eq(users.id, w.contact.id))
    await t.db.update(users).set({ locale: 'fr' }).where(eq(users.id, w.member.id))
    await t.db
      .update(organizations)
      .set({ timeZone: 'America/New_York' })
      .where(eq(organizations.id, w.organization.id))
    const response = await t.post(`/api/transfers/${w.transfer.id}/pickups`, {
      cookie: w.contact.cookie,
      json: { acceptance: { typedName: 'Zoé' } },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(response.status).toBe(201)
    const [receipt] = await t.db
      .select()
      .from(transferReceipts)
      .where(eq(transferReceipts.transferId, w.transfer.id))
    sent.length = 0
    await handler()(job({ receiptId: receipt!.id, userId: w.member.id }))
    await handler()(job({ receiptId: receipt!.id, userId: w.contact.id }))
    const [toMember, toContact] = sent
    expect(toMember).toMatchObject({ to: w.member.email, subject: 'Reçu de remise : le trousseau « Cave »' })
    expect(toMember!.text).toContain('a accepté le trousseau « Cave » de Agence le 15 janvier 2030 à 04:00.')
    expect(toContact).toMatchObject({ to: w.contact.email })
    expect(toContact!.text).toContain(
      'You accepted the keychain “Cave” of Agence on 15 January 2030 at 04:00.',
    )
    for (const message of [toMember!, toContact!]) {
      expect(message.attachments![0]!.filename).toBe('receipt-Cave.pdf')
      expect(Buffer.from(message.attachments![0]!.content).subarray(0, 5).toString()).toBe('%PDF-')
    }
  })

  it('sends the receipt of a stored photo its PDF cannot hold, the PDF (French here) saying a photo was taken', async () => {
    const w = await scheduledTransfer(t)
    const response = await t.post(`/api/transfers/${w.transfer.id}/pickups`, {
      cookie: w.contact.cookie,
      json: { acceptance: { typedName: 'Zoé' } },
      headers: { 'idempotency-key': randomUUID() },
    })
    expect(response.status).toBe(201)
    // A photo stored before the upload checked what a PDF can hold: five colour components.
    const [receipt] = await t.db
      .update(transferReceipts)
      .set({ photo: jpegWith({ components: 5 }) })
      .where(eq(transferReceipts.transferId, w.transfer.id))
      .returning()
    sent.length = 0
    await handler()(job({ receiptId: receipt!.id, userId: w.contact.id }))
    expect(sent).toHaveLength(1)
    const pdf = sent[0]!.attachments![0]!.content
    expect(Buffer.from(pdf).subarray(0, 5).toString()).toBe('%PDF-')
    const document = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 })
      .promise
    const page = await (await document.getPage(1)).getTextContent()
    await document.destroy()
    const text = page.items.map((item) => ('str' in item ? item.str : '')).join(' ')
    expect(text.replace(/\s+/g, ' ')).toContain(
      'Photo des clés Une photo a été prise, dans un format JPEG que ce PDF ne peut pas contenir.',
    )
  })
})
