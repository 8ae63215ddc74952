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
  caution: /*i18n*/ {
    id: 'mail.foundReport.caution',
    message:
      'Trousseau does not check what finders write: be careful before meeting anyone or giving out an address.',
  },
  button: /*i18n*/ { id: 'mail.foundReport.button', message: 'Open the tag' },
} satisfies Record<string, MessageDescriptor>

export function tagPageUrl(publicUrl: string, locale: Locale, publicId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}/tags/${publicId}`
}

/** To an admin of the organization owning the tag; the finder's words are data, never markup. */
export function foundReportMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  organizationName: string
  tag: { code: string; name: string; publicId: string }
  message: string
  contact: string
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
      text(foundReportMessages.caution),
    ],
    button: {
      label: text(foundReportMessages.button),
      href: tagPageUrl(input.publicUrl, input.locale, input.tag.publicId),
    },
    signature: text(signInMessages.signature),
  })
}
