import { formatCalendarDay } from '../i18n/format.ts'
import type { MessageDescriptor } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'
import { transferRequestUrl } from './transfer-mail.ts'
import { type TransferMailInput, transferTexts } from './transfer-texts.ts'

const m = {
  requestedSubject: /*i18n*/ {
    id: 'mail.extension.requested.subject',
    message: '{holder} asks to keep the keychain “{keychain}” until {to}',
  },
  requestedBody: /*i18n*/ {
    id: 'mail.extension.requested.body',
    message:
      '{holder} asks to keep the keychain “{keychain}” of {organization} until {to}, instead of {previous}. You can approve or refuse the request from the list of transfers.',
  },
  requestedButton: /*i18n*/ { id: 'mail.extension.requested.button', message: 'See the transfers' },
  approvedSubject: /*i18n*/ {
    id: 'mail.extension.approved.subject',
    message: 'More time granted: the keychain “{keychain}”',
  },
  approvedBody: /*i18n*/ {
    id: 'mail.extension.approved.body',
    message: '{organization} agreed: you may keep the keychain “{keychain}” until {to}.',
  },
  refusedSubject: /*i18n*/ {
    id: 'mail.extension.refused.subject',
    message: 'More time refused: the keychain “{keychain}”',
  },
  refusedBody: /*i18n*/ {
    id: 'mail.extension.refused.body',
    message:
      '{organization} could not give you more time: the keychain “{keychain}” is still due back on {previous}.',
  },
  button: /*i18n*/ { id: 'mail.extension.button', message: 'See the transfer' },
} satisfies Record<string, MessageDescriptor>

/** `toDate`: the to-date asked for; `previousToDate`: the transfer's when asked. */
export type ExtensionMailInput = TransferMailInput & {
  publicUrl: string
  transferId: string
  holderName: string
  previousToDate: string
}

const texts = (input: ExtensionMailInput) =>
  transferTexts(input, {
    holder: input.holderName,
    previous: formatCalendarDay(input.locale, input.previousToDate),
  })

/** To an admin or manager of the organization, in their language: a holder asks for more time. */
export function extensionRequestedMail(input: ExtensionMailInput): MailMessage {
  const text = texts(input)
  const base = input.publicUrl.replace(/\/+$/, '')
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(m.requestedSubject),
    preheader: text(m.requestedBody),
    paragraphs: [text(signInMessages.greeting), text(m.requestedBody)],
    button: {
      label: text(m.requestedButton),
      href: `${base}${input.locale === 'en' ? '/en' : ''}/app/transfers`,
    },
    signature: text(signInMessages.signature),
  })
}

/** To the holder, in their language: the answer to their request. */
export function extensionDecidedMail(approved: boolean, input: ExtensionMailInput): MailMessage {
  const text = texts(input)
  const body = text(approved ? m.approvedBody : m.refusedBody)
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(approved ? m.approvedSubject : m.refusedSubject),
    preheader: body,
    paragraphs: [text(signInMessages.greeting), body],
    button: {
      label: text(m.button),
      href: transferRequestUrl(input.publicUrl, input.locale, input.transferId),
    },
    signature: text(signInMessages.signature),
  })
}
