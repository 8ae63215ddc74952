import type { Locale } from '../../contract/locale.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'

/** What people wait for, told by mail: a pickup, a return, an order's progress, a plan's period. */
const NOTICE_KINDS = [
  'transfer.picked_up',
  'transfer.returned',
  'order.paid',
  'order.shipped',
  'order.delivered',
  'subscription.renewed',
  'subscription.ending',
] as const
export type NoticeKind = (typeof NOTICE_KINDS)[number]

const subjects: Record<NoticeKind, MessageDescriptor> = {
  'transfer.picked_up': /*i18n*/ {
    id: 'mail.notice.pickedUp.subject',
    message: 'Picked up: the keychain “{keychain}”',
  },
  'transfer.returned': /*i18n*/ {
    id: 'mail.notice.returned.subject',
    message: 'Returned: the keychain “{keychain}”',
  },
  'order.paid': /*i18n*/ { id: 'mail.notice.orderPaid.subject', message: 'Order {reference} paid' },
  'order.shipped': /*i18n*/ { id: 'mail.notice.orderShipped.subject', message: 'Order {reference} shipped' },
  'order.delivered': /*i18n*/ {
    id: 'mail.notice.orderDelivered.subject',
    message: 'Order {reference} delivered',
  },
  'subscription.renewed': /*i18n*/ { id: 'mail.notice.renewed.subject', message: 'Plan {plan} renewed' },
  'subscription.ending': /*i18n*/ {
    id: 'mail.notice.ending.subject',
    message: 'Your plan {plan} ends on {date}',
  },
}

const bodies: Record<NoticeKind, MessageDescriptor> = {
  'transfer.picked_up': /*i18n*/ {
    id: 'mail.notice.pickedUp.body',
    message:
      '{holder} picked up the keychain “{keychain}” of {organization} on {date}. It is due back on {to}.',
  },
  'transfer.returned': /*i18n*/ {
    id: 'mail.notice.returned.body',
    message:
      'The keychain “{keychain}” lent to {holder} came back to {organization} on {date}; {receiver} received it.',
  },
  'order.paid': /*i18n*/ {
    id: 'mail.notice.orderPaid.body',
    message: 'The order {reference} of {organization} is paid. Thank you!',
  },
  'order.shipped': /*i18n*/ {
    id: 'mail.notice.orderShipped.body',
    message: 'The tags of the order {reference} of {organization} are on their way.',
  },
  'order.delivered': /*i18n*/ {
    id: 'mail.notice.orderDelivered.body',
    message: 'The order {reference} of {organization} was delivered.',
  },
  'subscription.renewed': /*i18n*/ {
    id: 'mail.notice.renewed.body',
    message: 'The plan {plan} of {organization} now runs until {date}.',
  },
  'subscription.ending': /*i18n*/ {
    id: 'mail.notice.ending.body',
    message: 'The plan {plan} of {organization} ends on {date}. Renew it to keep authorizing transfers.',
  },
}

const button = /*i18n*/ { id: 'mail.notice.button', message: 'Open Trousseau' }

/** A notice in the reader's language; `values` fill its texts (already formatted for that language). */
export function noticeMail(
  kind: NoticeKind,
  input: { to: string; locale: Locale; href: string; values: Record<string, string> },
): MailMessage {
  const i18n = translator(input.locale)
  const text = (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values: input.values })
  const body = text(bodies[kind])
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(subjects[kind]),
    preheader: body,
    paragraphs: [text(signInMessages.greeting), body],
    button: { label: text(button), href: input.href },
    signature: text(signInMessages.signature),
  })
}
