import type { Locale } from '../../contract/locale.ts'
import { shiftCalendarDay } from '../../contract/transfers.ts'
import { formatCalendarDay } from '../i18n/format.ts'
import { type MessageDescriptor, translator } from '../i18n/translator.ts'

/** What every mail about one transfer names: the reader, the organization, the keychain and its window. */
export type TransferMailInput = {
  to: string
  locale: Locale
  organizationName: string
  keychainName: string
  fromDate: string
  toDate: string
}

/**
 * The texts of a transfer mail in the reader's language, with the transfer's values (`organization`,
 * `keychain`, `from`, `to`, `lastDay`) and any `extra` ones filled in.
 */
export function transferTexts(input: TransferMailInput, extra: Record<string, string> = {}) {
  const i18n = translator(input.locale)
  const values = {
    organization: input.organizationName,
    keychain: input.keychainName,
    from: formatCalendarDay(input.locale, input.fromDate),
    to: formatCalendarDay(input.locale, input.toDate),
    // The window closes as the to-date starts: the last day to pick it up is the day before.
    lastDay: formatCalendarDay(input.locale, shiftCalendarDay(input.toDate, -1)),
    ...extra,
  }
  return (descriptor: MessageDescriptor) => i18n._({ ...descriptor, values })
}
