import type { Locale } from '../../contract/locale.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'
import { tagPageUrl } from './found-report-mail.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'

const lostTagScanMessages = {
  subject: /*i18n*/ { id: 'mail.lostTagScan.subject', message: 'Lost tag {code} was scanned' },
  preheader: /*i18n*/ {
    id: 'mail.lostTagScan.preheader',
    message: 'Someone scanned a tag {organization} declared lost.',
  },
  intro: /*i18n*/ {
    id: 'mail.lostTagScan.intro',
    message:
      'Tag {code} ({tagName}) of {organization}, declared lost, was just scanned. Further scans within the hour are not mailed.',
  },
  button: /*i18n*/ { id: 'mail.lostTagScan.button', message: 'Open the tag' },
} satisfies Record<string, MessageDescriptor>

/** To an admin of the organization owning a lost tag that was scanned, in the admin's language. */
export function lostTagScanMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  organizationName: string
  tag: { code: string; name: string; publicId: string }
}): MailMessage {
  const i18n = translator(input.locale)
  const values = { code: input.tag.code, tagName: input.tag.name, organization: input.organizationName }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(lostTagScanMessages.subject),
    preheader: text(lostTagScanMessages.preheader),
    paragraphs: [text(signInMessages.greeting), text(lostTagScanMessages.intro)],
    button: {
      label: text(lostTagScanMessages.button),
      href: tagPageUrl(input.publicUrl, input.locale, input.tag.publicId),
    },
    signature: text(signInMessages.signature),
  })
}
