import type { Order } from '../../../contract/commerce.ts'
import type { Locale } from '../../../contract/locale.ts'
import type { Config, PaymentProviderName } from '../../config.ts'

/** A provider's word on a payment session. */
export type SessionStatus = 'paid' | 'unpaid' | 'expired' | 'open'

/** What a provider needs to ask for a payment: the order as the API shows it, and its payer's language. */
export type PaymentOrder = Pick<Order, 'id' | 'reference' | 'totals' | 'lines'> & {
  locale: Locale
  organizationName: string
  /** The VAT rate the totals were computed with, named on the VAT line. */
  vatRatePercent: number
}

export interface PaymentProvider {
  readonly name: PaymentProviderName
  /** Opens a session for the order's total; `url` is where the payer goes. */
  createSession(order: PaymentOrder): Promise<{ url: string; sessionId: string }>
  /** Asks the provider for the truth about a session. */
  retrieve(sessionId: string): Promise<SessionStatus>
  /** Closes a session that can still be paid (before a new one replaces it). */
  expire(sessionId: string): Promise<void>
}

/** `/app/order-result/success?order=…` (or `/cancel`), under `/en` for English. */
export function orderResultUrl(
  config: Pick<Config, 'publicUrl'>,
  locale: Locale,
  outcome: 'success' | 'cancel',
  orderId: string,
): string {
  const base = config.publicUrl.replace(/\/+$/, '')
  return `${base}${locale === 'en' ? '/en' : ''}/app/order-result/${outcome}?order=${encodeURIComponent(orderId)}`
}
