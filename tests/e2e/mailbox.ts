import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = { to: string[]; raw: string; text: string }

/** Undoes quoted-printable soft breaks and escapes so links and codes can be read from the raw message. */
function decodeQuotedPrintable(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
}

/** A real SMTP receiver on loopback: the server under test delivers to it over SMTP. */
export async function startMailbox() {
  const received: ReceivedMail[] = []
  const waiters: Array<() => void> = []
  /** While set, every message is refused with a temporary failure (451), as a server that is struggling. */
  let refusing = false
  let refused = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        if (refusing) {
          refused += 1
          callback(Object.assign(new Error('Try again later'), { responseCode: 451 }))
          return
        }
        const raw = Buffer.concat(chunks).toString('utf8')
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          text: decodeQuotedPrintable(raw),
        })
        for (const wake of waiters.splice(0)) wake()
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo

  /**
   * The first mail to `address` received after the first `after` ones (and, with `matching`, whose text
   * matches: mails of the job queue arrive in their own time, between a sign-in request and its mail).
   */
  async function nextMailTo(
    address: string,
    after = 0,
    timeoutMs = 10_000,
    matching?: RegExp,
  ): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const mail = received
        .slice(after)
        .find((message) => message.to.includes(address) && (!matching || matching.test(message.text)))
      if (mail) return mail
      if (Date.now() > deadline) throw new Error(`No mail to ${address} within ${timeoutMs} ms`)
      await new Promise<void>((resolve) => {
        waiters.push(resolve)
        setTimeout(resolve, 250)
      })
    }
  }

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextMailTo,
    refuse(on: boolean) {
      refusing = on
    },
    get refused() {
      return refused
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** What a sign-in mail holds: its link with a token. */
export const SIGN_IN_MAIL = /[?&]token=[A-Za-z0-9_-]{43}/

export function signInCodeOf(mail: ReceivedMail): string {
  const code = mail.text.match(/\b(\d{6})\b/)?.[1]
  if (!code) throw new Error('No 6-digit code in the mail')
  return code
}

export function signInLinkOf(mail: ReceivedMail): string {
  const link = mail.text.match(/https?:\/\/[^\s"'<>]+[?&]token=[A-Za-z0-9_-]{43}/)?.[0]
  if (!link) throw new Error('No sign-in link in the mail')
  return link
}
