import type { Locale } from '../../contract/locale.ts'
import type { Address } from '../../contract/organizations.ts'
import { formatAddress } from '../i18n/format.ts'
import type { MessageDescriptor } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'
import { type TransferMailInput, transferTexts } from './transfer-texts.ts'

export const transferMessages = {
  subject: /*i18n*/ {
    id: 'mail.transfer.subject',
    message: 'The keychain “{keychain}” is waiting for you from {from}',
  },
  preheader: /*i18n*/ {
    id: 'mail.transfer.preheader',
    message: '{organization} lends you a keychain from {from} to {to}.',
  },
  body: /*i18n*/ {
    id: 'mail.transfer.body',
    message:
      '{authorizer} of {organization} authorized you to pick up the keychain “{keychain}” between {from} and {lastDay}. It is due back on {to}.',
  },
  address: /*i18n*/ {
    id: 'mail.transfer.address',
    message: 'Pick it up and bring it back at this address:\n{address}',
  },
  howToPickUp: /*i18n*/ {
    id: 'mail.transfer.howToPickUp',
    message: 'When you take it, scan one of its tags with Trousseau to confirm the pickup.',
  },
  invited: /*i18n*/ {
    id: 'mail.transfer.invited',
    message:
      'To see the request, sign in to Trousseau with this e-mail address ({email}): you will receive a link and a code.',
  },
  button: /*i18n*/ { id: 'mail.transfer.button', message: 'See the request' },
  cancelledSubject: /*i18n*/ {
    id: 'mail.transferCancelled.subject',
    message: 'Transfer cancelled: keychain “{keychain}”',
  },
  cancelledPreheader: /*i18n*/ {
    id: 'mail.transferCancelled.preheader',
    message: '{organization} cancelled a transfer.',
  },
  cancelledBody: /*i18n*/ {
    id: 'mail.transferCancelled.body',
    message:
      '{organization} cancelled the transfer of the keychain “{keychain}” from {from} to {to}. You no longer need to pick it up.',
  },
} satisfies Record<string, MessageDescriptor>

/** The SPA's request page, French at the root, English under /en. */
export function transferRequestUrl(publicUrl: string, locale: Locale, transferId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${locale === 'en' ? '/en' : ''}/app/transfers/requests/${transferId}`
}

const texts = (input: TransferMailInput, extra: Record<string, string> = {}) =>
  transferTexts(input, { email: input.to, ...extra })

/**
 * To the recipient of a new transfer, in their account's language: the keychain, the window, where to pick
 * it up (the organization's address), who authorized it, and a link to the request. For an address invited by
 * the transfer it is also the invitation (`invited`: how to sign in).
 */
export function transferAuthorizedMail(
  input: TransferMailInput & {
    publicUrl: string
    transferId: string
    authorizerName: string
    address: Address
    invited: boolean
  },
): MailMessage {
  const text = texts(input, {
    authorizer: input.authorizerName,
    address: formatAddress(input.locale, input.address),
  })
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(transferMessages.subject),
    preheader: text(transferMessages.preheader),
    paragraphs: [
      text(signInMessages.greeting),
      text(transferMessages.body),
      text(transferMessages.address),
      text(transferMessages.howToPickUp),
      ...(input.invited ? [text(transferMessages.invited)] : []),
    ],
    button: {
      label: text(transferMessages.button),
      href: transferRequestUrl(input.publicUrl, input.locale, input.transferId),
    },
    signature: text(signInMessages.signature),
  })
}

/** To the recipient of a cancelled transfer, in their account's language. */
export function transferCancelledMail(input: TransferMailInput): MailMessage {
  const text = texts(input)
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(transferMessages.cancelledSubject),
    preheader: text(transferMessages.cancelledPreheader),
    paragraphs: [text(signInMessages.greeting), text(transferMessages.cancelledBody)],
    signature: text(signInMessages.signature),
  })
}
