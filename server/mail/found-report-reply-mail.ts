import type { Locale } from '../../contract/locale.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'
import { tagPageUrl } from './found-report-mail.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'

const foundReportReplyMessages = {
  subject: /*i18n*/ {
    id: 'mail.foundReportReply.subject',
    message: '{organization} replied about the keys you found',
  },
  preheader: /*i18n*/ {
    id: 'mail.foundReportReply.preheader',
    message: 'A reply to your message about tag {code}.',
  },
  intro: /*i18n*/ {
    id: 'mail.foundReportReply.intro',
    message: '{organization} replied to your message about the keys with tag {code}:',
  },
  yourMessage: /*i18n*/ { id: 'mail.foundReportReply.yourMessage', message: 'You had written: {message}' },
  privacy: /*i18n*/ {
    id: 'mail.foundReportReply.privacy',
    message:
      'Trousseau passed this reply on: they did not see your e-mail address, and nobody reads answers to this e-mail. To write to them again, use the form on the tag’s page.',
  },
  button: /*i18n*/ { id: 'mail.foundReportReply.button', message: 'Write to them again' },
} satisfies Record<string, MessageDescriptor>

/** What of the finder's own message the reply recalls. */
const RECALLED_LENGTH = 300

/**
 * An organization's reply to a finder, in the finder's language, to the address they left. Sent from the
 * server's address (MAIL_FROM) with no Reply-To: the staff member's address is not given away either.
 */
export function foundReportReplyMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  organizationName: string
  tag: { code: string; publicId: string }
  finderMessage: string
  reply: string
}): MailMessage {
  const i18n = translator(input.locale)
  const recalled =
    input.finderMessage.length > RECALLED_LENGTH
      ? `${input.finderMessage.slice(0, RECALLED_LENGTH)}…`
      : input.finderMessage
  const values = { code: input.tag.code, organization: input.organizationName, message: recalled }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(foundReportReplyMessages.subject),
    preheader: text(foundReportReplyMessages.preheader),
    paragraphs: [
      text(signInMessages.greeting),
      text(foundReportReplyMessages.intro),
      input.reply,
      text(foundReportReplyMessages.yourMessage),
      text(foundReportReplyMessages.privacy),
    ],
    button: {
      label: text(foundReportReplyMessages.button),
      href: tagPageUrl(input.publicUrl, input.locale, input.tag.publicId),
    },
    signature: text(signInMessages.signature),
  })
}
