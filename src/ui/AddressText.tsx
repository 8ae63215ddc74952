import type { Address } from '../../contract/organizations.ts'
import { useLocale } from '../lib/use-locale.ts'

/** A postal address on one line, the country named in the reader's language. */
export function AddressText({ address, className = '' }: { address: Address; className?: string }) {
  const locale = useLocale()
  const country = new Intl.DisplayNames([locale], { type: 'region' }).of(address.country) ?? address.country
  return (
    <address className={`not-italic ${className}`}>
      {address.line1}
      {address.line2 ? `, ${address.line2}` : ''}, {address.postalCode} {address.city}, {country}
    </address>
  )
}
