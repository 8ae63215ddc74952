import { i18n, type Messages } from '@lingui/core'
import type { Locale } from '../../contract/locale.ts'

// In the build, each module adds the translations of the messages it uses when it is evaluated
// (scripts/vite-inline-messages.ts): before anything it renders can ask for them.

/** Every translation added so far, per locale: what `activateLocale` hands to Lingui. */
export const addedMessages: Record<Locale, Messages> = { fr: {}, en: {} }

export function addMessages(part: Partial<Record<Locale, Messages>>): void {
  for (const locale of Object.keys(addedMessages) as Locale[])
    Object.assign(addedMessages[locale], part[locale])
  // Into the active catalog directly: `i18n.load` would announce a change and render the whole app again
  // each time a page's code arrives, for texts nothing shows yet.
  const active = i18n.locale as Locale | ''
  if (active) Object.assign(i18n.messages, part[active])
}
