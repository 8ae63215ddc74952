import type { Locale } from '../../contract/locale.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'

export const foundReportMessages = {
  subject: /*i18n*/ { id: 'mail.foundReport.subject', message: 'Someone found the keys of tag {code}' },
  preheader: /*i18n*/ {
    id: 'mail.foundReport.preheader',
    message: 'A finder left a message for {organization}.',
  },
  intro: /*i18n*/ {
    id: 'mail.foundReport.intro',
    message:
      'Someone who found the keychain with tag {code} ({tagName}) left this message for {organization}:',
  },
  contact: /*i18n*/ { id: 'mail.foundReport.contact', message: 'How to reach them: {contact}' },
  reply: /*i18n*/ {
    id: 'mail.foundReport.reply',
    message:
      'They left an e-mail address, which Trousseau keeps private (shown as …@…): reply to them from the report in Trousseau.',
  },
  caution: /*i18n*/ {
    id: 'mail.foundReport.caution',
    message:
      'Trousseau does not check what finders write: be careful before meeting anyone or giving out an address.',
  },
  button: /*i18n*/ { id: 'mail.foundReport.reportButton', message: 'Open the report' },
} satisfies Record<string, MessageDescriptor>

/** The report's screen in the app, in the reader's language. */
function foundReportUrl(publicUrl: string, locale: Locale, reportId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}/app/found-reports/${reportId}`
}

export function tagPageUrl(publicUrl: string, locale: Locale, publicId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}/tags/${publicId}`
}

/**
 * To an admin of the organization owning the tag; the finder's words are data, never markup, and come with their
 * e-mail addresses masked (the caller masks them).
 */
export function foundReportMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  organizationName: string
  tag: { code: string; name: string; publicId: string }
  reportId: string
  message: string
  contact: string
  /** Whether the finder left an e-mail address the organization can reply to through the app. */
  canReply: boolean
}): MailMessage {
  const i18n = translator(input.locale)
  const values = {
    code: input.tag.code,
    tagName: input.tag.name,
    organization: input.organizationName,
    contact: input.contact,
  }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(foundReportMessages.subject),
    preheader: text(foundReportMessages.preheader),
    paragraphs: [
      text(signInMessages.greeting),
      text(foundReportMessages.intro),
      input.message,
      text(foundReportMessages.contact),
      ...(input.canReply ? [text(foundReportMessages.reply)] : []),
      text(foundReportMessages.caution),
    ],
    button: {
      label: text(foundReportMessages.button),
      href: foundReportUrl(input.publicUrl, input.locale, input.reportId),
    },
    signature: text(signInMessages.signature),
  })
}
