import { randomUUID } from 'node:crypto'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import nodemailer from 'nodemailer'
import type { Logger } from 'pino'
import type { Config } from '../config.ts'

export type MailMessage = {
  to: string
  subject: string
  text: string
  html: string
  /**
   * A line for the developer's log when mail only goes to the outbox folder (no SMTP_URL), such as the
   * sign-in link and code. Never logged when real mail is sent.
   */
  devNote?: string
  /** Files sent with the message (a handover receipt's PDF). */
  attachments?: MailAttachment[]
  /** The mail in one line and the address its button opens: what a push notification of it says and opens. */
  summary?: string
  link?: string
}

type MailAttachment = {
  /** A safe ASCII name (letters, digits, `-`, `.`): the `filename` every mail client reads. */
  filename: string
  /** The name as written, in UTF-8 (RFC 2231 `filename*`), which clients prefer when they read it. */
  unicodeFilename?: string
  contentType: string
  content: Uint8Array
}

export type Mailer = {
  readonly kind: 'smtp' | 'outbox' | 'memory'
  send(message: MailMessage): Promise<void>
  close(): Promise<void>
}

export function createMailer(
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  logger: Logger,
): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom)
  return outboxMailer(join(config.dataDir, 'outbox'), config.mailFrom, logger)
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport(smtpUrl)
  return {
    kind: 'smtp',
    async send({ to, subject, text, html, attachments }) {
      await transport.sendMail({ from, to, subject, text, html, attachments: forNodemailer(attachments) })
    },
    async close() {
      transport.close()
    },
  }
}

/** Writes each message as `<timestamp>-<id>.eml` so a developer can open it in any mail client. */
function outboxMailer(dir: string, from: string, logger: Logger): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' })
  return {
    kind: 'outbox',
    async send({ to, subject, text, html, devNote, attachments }) {
      const info = await transport.sendMail({
        from,
        to,
        subject,
        text,
        html,
        attachments: forNodemailer(attachments),
      })
      await mkdir(dir, { recursive: true })
      const stamp = new Date().toISOString().replaceAll(':', '-')
      const file = join(dir, `${stamp}-${randomUUID()}.eml`)
      await writeFile(file, info.message as Buffer, { mode: 0o600 })
      logger.info({ file }, devNote ?? 'Mail written to the outbox')
    },
    async close() {},
  }
}

/** RFC 2231's extended value (RFC 5987 for HTTP): UTF-8, every byte but letters, digits and `-_.!~` percent-encoded. */
const extendedValue = (value: string) =>
  `UTF-8''${encodeURIComponent(value).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)}`
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`

/**
 * With a UTF-8 name, both `filename` parameters go in one prepared header (nodemailer alone writes either the
 * ASCII name or the encoded one, never both): a client that reads RFC 2231 shows `reçu-Clés.pdf`, another
 * `recu-Cles.pdf`.
 */
const forNodemailer = (attachments: MailAttachment[] = []) =>
  attachments.map(({ filename, unicodeFilename, contentType, content }) =>
    unicodeFilename && unicodeFilename !== filename
      ? {
          filename: false as const,
          contentType: `${contentType}; name=${quoted(filename)}`,
          contentDisposition: {
            prepared: true,
            foldLines: true,
            value: `attachment; filename=${quoted(filename)}; filename*=${extendedValue(unicodeFilename)}`,
          } as unknown as 'attachment',
          content: Buffer.from(content),
        }
      : { filename, contentType, content: Buffer.from(content) },
  )
