import type { Mailer, MailMessage } from '../../server/mail/mailer.ts'

export type SignInMail = { message: MailMessage; token: string; code: string; link: string }

/** Keeps every message in memory; `signInFor` digs the link token and code out of the newest sign-in mail. */
export class CapturedMailer implements Mailer {
  readonly kind = 'memory' as const
  readonly messages: MailMessage[] = []

  async send(message: MailMessage): Promise<void> {
    this.messages.push(message)
  }

  async close(): Promise<void> {}

  to(email: string): MailMessage[] {
    return this.messages.filter((message) => message.to === email.toLowerCase())
  }

  last(email?: string): MailMessage | undefined {
    return (email ? this.to(email) : this.messages).at(-1)
  }

  signInFor(email: string): SignInMail {
    const message = this.last(email)
    if (!message) throw new Error(`no mail was sent to ${email}`)
    const link = /https?:\/\/\S+\?token=[A-Za-z0-9_-]{43}/.exec(message.text)?.[0]
    const code = /^\d{6}$/m.exec(message.text)?.[0]
    if (!link || !code) throw new Error(`the last mail to ${email} holds no sign-in link and code`)
    return { message, link, token: new URL(link).searchParams.get('token')!, code }
  }

  clear(): void {
    this.messages.length = 0
  }
}
