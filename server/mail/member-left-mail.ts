import type { Locale } from '../../contract/locale.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'

export const memberLeftMessages = {
  subject: /*i18n*/ {
    id: 'mail.memberLeft.subject',
    message: '{person} left {organization} with {keychains, plural, one {# keychain} other {# keychains}}',
  },
  preheader: /*i18n*/ {
    id: 'mail.memberLeft.preheader',
    message: 'Get the keys back, or hand them to someone who stays.',
  },
  intro: /*i18n*/ {
    id: 'mail.memberLeft.intro',
    message:
      '{person} can no longer sign in to {organization}, yet {keychains, plural, =0 {holds no keychain} one {still holds # keychain} other {still holds # keychains}} and {transfers, plural, =0 {has no transfer open} one {has # transfer open} other {has # transfers open}}.',
  },
  advice: /*i18n*/ {
    id: 'mail.memberLeft.advice',
    message:
      'Ask for the keys back, or record who holds them now: the person stays listed in the holdings report until every keychain is back.',
  },
  button: /*i18n*/ { id: 'mail.memberLeft.button', message: 'See what they hold' },
} satisfies Record<string, MessageDescriptor>

/** To an admin of the organization: a person just disabled there who still holds keychains or transfers. */
export function memberLeftMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  organizationName: string
  person: { id: string; name: string }
  keychains: number
  transfers: number
}): MailMessage {
  const i18n = translator(input.locale)
  const values = {
    person: input.person.name,
    organization: input.organizationName,
    keychains: input.keychains,
    transfers: input.transfers,
  }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  const base = `${input.publicUrl.replace(/\/+$/, '')}${input.locale === 'en' ? '/en' : ''}`
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(memberLeftMessages.subject),
    preheader: text(memberLeftMessages.preheader),
    paragraphs: [
      text(signInMessages.greeting),
      text(memberLeftMessages.intro),
      text(memberLeftMessages.advice),
    ],
    button: { label: text(memberLeftMessages.button), href: `${base}/app/users/${input.person.id}` },
    signature: text(signInMessages.signature),
  })
}
