import type { Order } from '../../contract/commerce.ts'
import type { Locale } from '../../contract/locale.ts'
import type { Config, PaymentProviderName } from '../config.ts'
import type { AppDeps } from '../deps.ts'
import { createLocalProvider } from './local.ts'

/** A provider's word on a payment session. */
export type SessionStatus = 'paid' | 'unpaid' | 'expired' | 'open'

/** What a provider needs to ask for a payment: the order as the API shows it, and its payer's language. */
export type PaymentOrder = Pick<Order, 'id' | 'reference' | 'totals' | 'lines'> & {
  locale: Locale
  organizationName: string
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

type Deps = Pick<AppDeps, 'config' | 'database' | 'clock'>

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

/**
 * Stripe clients are kept per configuration (one HTTP agent each). The SDK is loaded only when Stripe is asked
 * for: a deployment on the local sandbox never holds it in memory.
 */
const stripeProviders = new WeakMap<Config, Promise<PaymentProvider>>()

/**
 * The provider by name: new sessions use PAYMENT_PROVIDER, an existing session the provider that opened it.
 * Null when that provider is not configured (Stripe without its keys).
 */
export async function paymentProvider(
  deps: Deps,
  name: PaymentProviderName = deps.config.paymentProvider,
): Promise<PaymentProvider | null> {
  if (name === 'local') return createLocalProvider(deps)
  if (!deps.config.stripeSecretKey) return null
  let provider = stripeProviders.get(deps.config)
  if (!provider) {
    provider = import('./stripe.ts').then((stripe) => stripe.createStripeProvider(deps.config))
    stripeProviders.set(deps.config, provider)
  }
  return provider
}
