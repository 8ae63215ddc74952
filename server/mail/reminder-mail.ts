import type { MessageDescriptor } from '../i18n/translator.ts'
import { renderMail } from './layout.ts'
import type { MailMessage } from './mailer.ts'
import { signInMessages } from './messages.ts'
import { transferRequestUrl } from './transfer-mail.ts'
import { type TransferMailInput, transferTexts } from './transfer-texts.ts'

/** The reminders of a transfer, in the order they come (see `server/modules/transfers/reminders.ts`). */
export const REMINDER_STEPS = [
  'pickup_tomorrow',
  'due_tomorrow',
  'due_today',
  'overdue',
  'escalation',
] as const
export type ReminderStep = (typeof REMINDER_STEPS)[number]
/** The recipient's reminders, and a manager's "chase" (sent now, whatever the recipient's settings). */
export type RecipientReminder = Exclude<ReminderStep, 'escalation'> | 'chase'

const m = {
  pickup_tomorrowSubject: /*i18n*/ {
    id: 'mail.reminder.pickupTomorrow.subject',
    message: 'Tomorrow: pick up the keychain “{keychain}”',
  },
  pickup_tomorrowBody: /*i18n*/ {
    id: 'mail.reminder.pickupTomorrow.body',
    message:
      'You can pick up the keychain “{keychain}” of {organization} from tomorrow, {from}, until {lastDay}. It is due back on {to}.',
  },
  due_tomorrowSubject: /*i18n*/ {
    id: 'mail.reminder.dueTomorrow.subject',
    message: 'Tomorrow: bring back the keychain “{keychain}”',
  },
  due_tomorrowBody: /*i18n*/ {
    id: 'mail.reminder.dueTomorrow.body',
    message: 'The keychain “{keychain}” of {organization} is due back tomorrow, {to}.',
  },
  due_todaySubject: /*i18n*/ {
    id: 'mail.reminder.dueToday.subject',
    message: 'Today: bring back the keychain “{keychain}”',
  },
  due_todayBody: /*i18n*/ {
    id: 'mail.reminder.dueToday.body',
    message: 'The keychain “{keychain}” of {organization} is due back today, {to}.',
  },
  overdueSubject: /*i18n*/ {
    id: 'mail.reminder.overdue.subject',
    message: 'Overdue: the keychain “{keychain}”',
  },
  overdueBody: /*i18n*/ {
    id: 'mail.reminder.overdue.body',
    message:
      'The keychain “{keychain}” of {organization} was due back on {to}. Please bring it back as soon as you can.',
  },
  chaseSubject: /*i18n*/ {
    id: 'mail.reminder.chase.subject',
    message: '{organization} is waiting for the keychain “{keychain}”',
  },
  chaseBody: /*i18n*/ {
    id: 'mail.reminder.chase.body',
    message:
      '{chaser} of {organization} reminds you that the keychain “{keychain}” was due back on {to}. Please bring it back as soon as you can.',
  },
  settings: /*i18n*/ {
    id: 'mail.reminder.settings',
    message:
      'You receive these reminders because you hold a transfer. You can turn them off in your profile.',
  },
  button: /*i18n*/ { id: 'mail.reminder.button', message: 'See the transfer' },
  escalationSubject: /*i18n*/ {
    id: 'mail.reminder.escalation.subject',
    message: 'Not returned: the keychain “{keychain}” ({holder})',
  },
  escalationBody: /*i18n*/ {
    id: 'mail.reminder.escalation.body',
    message:
      '{holder} has not brought back the keychain “{keychain}”, due back on {to}. They were reminded by mail. You can chase them from the list of transfers.',
  },
  escalationButton: /*i18n*/ { id: 'mail.reminder.escalation.button', message: 'See the transfers' },
} satisfies Record<string, MessageDescriptor>

export type ReminderMailInput = TransferMailInput & { publicUrl: string; transferId: string }

/** To the recipient of a transfer, in their language; a chase names the manager who sent it. */
export function reminderMail(
  step: RecipientReminder,
  input: ReminderMailInput & { chaserName?: string },
): MailMessage {
  const text = transferTexts(input, { chaser: input.chaserName ?? '' })
  const body = text(m[`${step}Body`])
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(m[`${step}Subject`]),
    preheader: body,
    paragraphs: [text(signInMessages.greeting), body, ...(step === 'chase' ? [] : [text(m.settings)])],
    button: {
      label: text(m.button),
      href: transferRequestUrl(input.publicUrl, input.locale, input.transferId),
    },
    signature: text(signInMessages.signature),
  })
}

/** To an admin or manager of the organization, in their language, when a keychain stays out past its day. */
export function escalationMail(input: ReminderMailInput & { holderName: string }): MailMessage {
  const text = transferTexts(input, { holder: input.holderName })
  const base = input.publicUrl.replace(/\/+$/, '')
  return renderMail({
    to: input.to,
    locale: input.locale,
    subject: text(m.escalationSubject),
    preheader: text(m.escalationBody),
    paragraphs: [text(signInMessages.greeting), text(m.escalationBody)],
    button: {
      label: text(m.escalationButton),
      href: `${base}${input.locale === 'en' ? '/en' : ''}/app/transfers`,
    },
    signature: text(signInMessages.signature),
  })
}
