import type { Locale } from '../../contract/locale.ts'
import type { Role } from '../../contract/permissions.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'

export const invitationMessages = {
  subject: /*i18n*/ {
    id: 'mail.invitation.subject',
    message: '{inviter} invited you to {organization} on Trousseau',
  },
  preheader: /*i18n*/ { id: 'mail.invitation.preheader', message: 'Join {organization} on Trousseau.' },
  body: /*i18n*/ {
    id: 'mail.invitation.body',
    message: '{inviter} invited you to join {organization} on Trousseau, as {role}.',
  },
  howTo: /*i18n*/ {
    id: 'mail.invitation.howTo',
    message: 'To accept, sign in with this e-mail address ({email}): you will receive a link and a code.',
  },
  button: /*i18n*/ { id: 'mail.invitation.button', message: 'Sign in to Trousseau' },
} satisfies Record<string, MessageDescriptor>

export const roleNames = {
  ADMIN: /*i18n*/ { id: 'mail.role.admin', message: 'administrator' },
  MANAGER: /*i18n*/ { id: 'mail.role.manager', message: 'manager' },
  MEMBER: /*i18n*/ { id: 'mail.role.member', message: 'member' },
  CONTACT: /*i18n*/ { id: 'mail.role.contact', message: 'contact' },
} satisfies Record<Role, MessageDescriptor>

/** The SPA's sign-in page: French at the root, English under /en. */
function signInPageUrl(publicUrl: string, locale: Locale): string {
  return `${publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}/sign-in`
}

export function invitationMail(input: {
  to: string
  locale: Locale
  publicUrl: string
  organizationName: string
  inviterName: string
  role: Role
}): MailMessage {
  const i18n = translator(input.locale)
  const values = {
    inviter: input.inviterName,
    organization: input.organizationName,
    role: i18n._(roleNames[input.role]),
    email: input.to,
  }
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(invitationMessages.subject),
    preheader: text(invitationMessages.preheader),
    paragraphs: [
      text(signInMessages.greeting),
      text(invitationMessages.body),
      text(invitationMessages.howTo),
    ],
    button: { label: text(invitationMessages.button), href: signInPageUrl(input.publicUrl, input.locale) },
    signature: text(signInMessages.signature),
  })
}
