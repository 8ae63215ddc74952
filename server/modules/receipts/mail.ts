import { eq } from 'drizzle-orm'
import * as v from 'valibot'
import type { Locale } from '../../../contract/locale.ts'
import { transferReceipts, users } from '../../db/schema.ts'
import type { AppDeps } from '../../deps.ts'
import { formatCalendarDay } from '../../i18n/format.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'
import type { NewJob } from '../../jobs/queue.ts'
import type { JobHandler, JobHandlers } from '../../jobs/runner.ts'
import { renderMail } from '../../mail/layout.ts'
import type { MailMessage } from '../../mail/mailer.ts'
import { signInMessages } from '../../mail/messages.ts'
import { formatInstant } from './pdf.ts'
import { receiptPdfOf } from './receipt-pdf.ts'

export const RECEIPT_MAIL_JOB = 'receipt.mail'

export const receiptMailTexts = {
  subject: /*i18n*/ {
    id: 'mail.receipt.subject',
    message: 'Handover receipt: the keychain “{keychain}”',
  },
  bodyRecipient: /*i18n*/ {
    id: 'mail.receipt.body.recipient',
    message:
      'You accepted the keychain “{keychain}” of {organization} on {at}. It is due back on {to}. Your receipt is attached (PDF).',
  },
  bodyGiver: /*i18n*/ {
    id: 'mail.receipt.body.giver',
    message:
      '{recipient} accepted the keychain “{keychain}” of {organization} on {at}. It is due back on {to}. The receipt is attached (PDF).',
  },
  filename: /*i18n*/ { id: 'mail.receipt.filename', message: 'receipt' },
} satisfies Record<string, MessageDescriptor>
const m = receiptMailTexts

const PayloadSchema = v.object({ receiptId: v.string(), userId: v.string() })

/**
 * A receipt's mail to one of its parties. The job carries only ids: the PDF (with its photo, up to 300 KB) is
 * rendered when the job runs, from the stored receipt, rather than stored in the queue's payload.
 */
export function receiptMailJob(
  payload: v.InferOutput<typeof PayloadSchema>,
  options: { now: Date; organizationId: string },
): NewJob {
  return {
    kind: RECEIPT_MAIL_JOB,
    payload,
    runAt: options.now,
    now: options.now,
    organizationId: options.organizationId,
    dedupeKey: `receipt:${payload.receiptId}:${payload.userId}`,
  }
}

/** Letters that do not decompose into a base letter and an accent, as ASCII writes them. */
const LIGATURES: Record<string, string> = {
  æ: 'ae',
  Æ: 'AE',
  œ: 'oe',
  Œ: 'OE',
  ß: 'ss',
  ø: 'o',
  Ø: 'O',
  ł: 'l',
  Ł: 'L',
  đ: 'd',
  Đ: 'D',
}

/**
 * A part of a file name: its letters and digits, every other run as one `-`, at most 40 characters (code points,
 * so a letter outside the BMP is never cut in half).
 */
const namePart = (text: string, other: RegExp) =>
  [...text.replace(other, '-').replace(/^-|-$/g, '')].slice(0, 40).join('').replace(/-$/, '')

/** `Clés` → `Cles`: the accents split off (NFD) and dropped, the ligatures spelled out, then ASCII only. */
const asciiPart = (text: string) =>
  namePart(
    text
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[æÆœŒßøØłŁđĐ]/g, (char) => LIGATURES[char]!),
    /[^A-Za-z0-9]+/g,
  )

/** `Clés` stays `Clés`, composed (NFC). */
const unicodePart = (text: string) => namePart(text.normalize('NFC'), /[^\p{L}\p{M}\p{N}]+/gu)

/** The mail in the reader's language, with the PDF in the recipient's (the receipt's own locale). */
export function receiptMail(input: {
  to: string
  locale: Locale
  recipientName: string
  isRecipient: boolean
  keychainName: string
  organizationName: string
  acceptedAt: Date
  toDate: string
  timeZone: string
  pdf: Uint8Array
  pdfLocale: Locale
}): MailMessage {
  const i18n = translator(input.locale)
  const values = {
    keychain: input.keychainName,
    organization: input.organizationName,
    recipient: input.recipientName,
    at: formatInstant(input.locale, input.acceptedAt, input.timeZone),
    to: formatCalendarDay(input.locale, input.toDate),
  }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  const body = text(input.isRecipient ? m.bodyRecipient : m.bodyGiver)
  const prefix = translator(input.pdfLocale)._(m.filename)
  return {
    ...renderMail({
      to: input.to,
      locale: input.locale,
      subject: text(m.subject),
      preheader: body,
      paragraphs: [text(signInMessages.greeting), body],
      signature: text(signInMessages.signature),
    }),
    attachments: [
      {
        filename: `${asciiPart(prefix)}-${asciiPart(input.keychainName) || 'trousseau'}.pdf`,
        unicodeFilename: `${unicodePart(prefix)}-${unicodePart(input.keychainName) || 'trousseau'}.pdf`,
        contentType: 'application/pdf',
        content: input.pdf,
      },
    ],
  }
}

/** Sends one receipt mail: nothing when the receipt or the reader is gone (the transfer was deleted meanwhile). */
export function receiptMailHandler(
  deps: Pick<AppDeps, 'database' | 'mailer' | 'secret' | 'clock'>,
): JobHandler {
  const { db } = deps.database
  return async (job) => {
    const { receiptId, userId } = v.parse(PayloadSchema, job.payload)
    const [receipt] = await db.select().from(transferReceipts).where(eq(transferReceipts.id, receiptId))
    const [reader] = await db.select().from(users).where(eq(users.id, userId))
    if (!receipt || !reader) return undefined
    const { pdf, timeZone } = await receiptPdfOf(deps, receipt)
    await deps.mailer.send(
      receiptMail({
        to: reader.email,
        locale: reader.locale,
        recipientName: receipt.details.recipient.name,
        isRecipient: reader.id === receipt.recipientId,
        keychainName: receipt.details.keychain.name,
        organizationName: receipt.details.organization.name,
        acceptedAt: receipt.acceptedAt,
        toDate: receipt.details.toDate,
        timeZone,
        pdf,
        pdfLocale: receipt.locale,
      }),
    )
    return undefined
  }
}

/** The jobs this module runs, for the server to register (`server/job-handlers.ts`). */
export function receiptJobs(deps: Pick<AppDeps, 'database' | 'mailer' | 'secret' | 'clock'>): JobHandlers {
  return { [RECEIPT_MAIL_JOB]: receiptMailHandler(deps) }
}
