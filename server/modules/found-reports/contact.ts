import { normalizedMailAddress } from '../../../contract/auth.ts'

/** Anything with an `@` in it, with what sticks to it (`<jean@example.com>,`): read as an e-mail address. */
const ADDRESS_LIKE = /\S*@\S*/g
const CANDIDATE = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+\.[^\s@<>()[\]"',;:]+/g

/** What staff see in place of an e-mail address a finder typed: the server keeps the address. */
const MASKED_ADDRESS = '…@…'

/**
 * The first valid e-mail address in what a finder typed to be reached (lower case), where the server mails the
 * organization's replies; null when there is none (a phone number), and then nobody can reply by mail.
 */
export function finderEmailOf(contact: string): string | null {
  for (const [candidate] of contact.matchAll(CANDIDATE)) {
    const address = normalizedMailAddress(candidate.toLowerCase().replace(/\.+$/, ''))
    if (address) return address
  }
  return null
}

/**
 * A finder's words as staff may read them: every e-mail address (anything with an `@`) replaced by `…@…`, so
 * no address reaches the organization's screens or mails. A phone number or a name stays.
 */
export function maskAddresses(text: string): string {
  return text.replace(ADDRESS_LIKE, MASKED_ADDRESS)
}
