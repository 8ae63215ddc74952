import { ErrorCode } from '../../../contract/errors.ts'
import type { Locale } from '../../../contract/locale.ts'
import type { ExtensionRefusal, PickupRefusal, TransferStatus } from '../../../contract/transfers.ts'
import { ApiError } from '../../http/errors.ts'
import { formatCalendarDay, formatDayIn } from '../../i18n/format.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'

/**
 * The transfer errors a user meets in the field or when authorizing, in the caller's language (their
 * account's), through `locales/*\/server.po`. The codes and extra fields are what clients act on.
 */
export const transferErrorMessages = {
  subscriptionRequired: /*i18n*/ {
    id: 'error.transfer.subscriptionRequired',
    message: 'Transfers need an active subscription: choose a plan first.',
  },
  allowanceExceeded: /*i18n*/ {
    id: 'error.transfer.allowanceExceeded',
    message: 'This month’s transfers are used up: {used} of {allowance}. The allowance renews on {date}.',
  },
  overlap: /*i18n*/ {
    id: 'error.transfer.overlap',
    message: 'Another transfer of this keychain overlaps these dates.',
  },
  extensionAfter: /*i18n*/ {
    id: 'error.extension.after',
    message: 'Choose a day after {date}.',
  },
  extensionDecided: /*i18n*/ {
    id: 'error.extension.decided',
    message: 'This request was already answered.',
  },
  notOverdue: /*i18n*/ {
    id: 'error.transfer.notOverdue',
    message: 'Only a keychain that is late can be chased: this one is not overdue.',
  },
  chasedRecently: /*i18n*/ {
    id: 'error.transfer.chasedRecently',
    message: 'A reminder was sent less than an hour ago. You can send another one at {time}.',
  },
} satisfies Record<string, MessageDescriptor>

const extensionRefusalMessages = {
  not_recipient: /*i18n*/ {
    id: 'error.extension.notRecipient',
    message: 'Only the person the keychain was lent to can ask for more time.',
  },
  closed: /*i18n*/ {
    id: 'error.extension.closed',
    message: 'This transfer is over: there is nothing to extend.',
  },
  pending: /*i18n*/ {
    id: 'error.extension.pending',
    message: 'A request for more time already waits for an answer.',
  },
} satisfies Record<ExtensionRefusal, MessageDescriptor>

export const pickupRefusalMessages = {
  not_recipient: /*i18n*/ {
    id: 'error.pickup.notRecipient',
    message: 'Only the recipient of the transfer can pick up this keychain.',
  },
  not_member: /*i18n*/ {
    id: 'error.pickup.notMember',
    message: 'The return is confirmed by a member of {organization}, at its address.',
  },
  own_return: /*i18n*/ {
    id: 'error.pickup.ownReturn',
    message: 'Someone else at {organization} confirms the return when you bring the keychain back.',
  },
  before_window: /*i18n*/ { id: 'error.pickup.beforeWindow', message: 'The pickup window opens on {from}.' },
  window_closed: /*i18n*/ {
    id: 'error.pickup.windowClosed',
    message: 'The pickup window closed on {to}: the transfer expired.',
  },
  cancelled: /*i18n*/ { id: 'error.pickup.cancelled', message: 'This transfer was cancelled.' },
  already_returned: /*i18n*/ {
    id: 'error.pickup.alreadyReturned',
    message: 'This keychain was already returned.',
  },
  keychain_out: /*i18n*/ {
    id: 'error.pickup.keychainOut',
    message: 'The keychain has not come back from a previous transfer yet.',
  },
} satisfies Record<PickupRefusal, MessageDescriptor>

export function subscriptionRequired(locale: Locale): ApiError {
  return new ApiError(
    402,
    ErrorCode.subscriptionRequired,
    translator(locale)._(transferErrorMessages.subscriptionRequired),
  )
}

/** 402 with `used`, `allowance` and `renewsAt` (start of next month in the organization's time zone). */
export function allowanceExceeded(
  locale: Locale,
  input: { used: number; allowance: number; renewsAt: Date; timeZone: string },
): ApiError {
  const message = translator(locale)._({
    ...transferErrorMessages.allowanceExceeded,
    values: {
      used: input.used,
      allowance: input.allowance,
      date: formatDayIn(locale, input.renewsAt, input.timeZone),
    },
  })
  return new ApiError(402, ErrorCode.transferAllowanceExceeded, message, {
    fields: { used: input.used, allowance: input.allowance, renewsAt: input.renewsAt.toISOString() },
  })
}

export function transferOverlap(locale: Locale): ApiError {
  return new ApiError(409, ErrorCode.transferOverlap, translator(locale)._(transferErrorMessages.overlap))
}

/** 409 `pickup_refused` with the rule's `reason` and a readable message. */
export function pickupRefused(
  locale: Locale,
  reason: PickupRefusal,
  transfer: { fromDate: string; toDate: string; organizationName: string },
): ApiError {
  const message = translator(locale)._({
    ...pickupRefusalMessages[reason],
    values: {
      from: formatCalendarDay(locale, transfer.fromDate),
      to: formatCalendarDay(locale, transfer.toDate),
      organization: transfer.organizationName,
    },
  })
  return new ApiError(409, ErrorCode.pickupRefused, message, { fields: { reason } })
}

/** 409 `invalid_transition` (`allowed: []`): only a SCHEDULED transfer can be cancelled. */
export function notCancellable(status: TransferStatus): ApiError {
  return new ApiError(
    409,
    ErrorCode.invalidTransition,
    `A ${status} transfer cannot be cancelled: only a SCHEDULED one can. Allowed next: none.`,
    { fields: { allowed: [] } },
  )
}

/** 409 `not_overdue`: a chase of a transfer whose keychain is not late. */
export function notOverdue(locale: Locale): ApiError {
  return new ApiError(409, ErrorCode.notOverdue, translator(locale)._(transferErrorMessages.notOverdue))
}

/** 429 `chased_recently` with `Retry-After` and `retryAt`: one chase an hour. */
export function chasedRecently(locale: Locale, retryAt: Date, now: Date, timeZone: string): ApiError {
  const time = new Intl.DateTimeFormat(locale === 'en' ? 'en-GB' : 'fr-FR', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
  }).format(retryAt)
  const message = translator(locale)._({ ...transferErrorMessages.chasedRecently, values: { time } })
  return new ApiError(429, ErrorCode.chasedRecently, message, {
    fields: { retryAt: retryAt.toISOString() },
    headers: { 'Retry-After': String(Math.ceil((retryAt.getTime() - now.getTime()) / 1000)) },
  })
}

/** 409 `extension_refused` with the rule's `reason`. */
export function extensionRefused(locale: Locale, reason: ExtensionRefusal): ApiError {
  const message = translator(locale)._(extensionRefusalMessages[reason])
  return new ApiError(409, ErrorCode.extensionRefused, message, { fields: { reason } })
}

/** 400 on `toDate`: the asked to-date must come after `date` (the current to-date, or today). */
export function extensionNotAfter(locale: Locale, date: string): ApiError {
  const message = translator(locale)._({
    ...transferErrorMessages.extensionAfter,
    values: { date: formatCalendarDay(locale, date) },
  })
  return new ApiError(400, ErrorCode.validation, message, { issues: [{ path: 'toDate', message }] })
}

/** 409 `conflict`: the request was answered the other way already. */
export function extensionDecided(locale: Locale): ApiError {
  return new ApiError(409, ErrorCode.conflict, translator(locale)._(transferErrorMessages.extensionDecided))
}
