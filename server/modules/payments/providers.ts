import type { Config, PaymentProviderName } from '../../config.ts'
import type { AppDeps } from '../../deps.ts'
import { createLocalProvider } from './local.ts'
import type { PaymentProvider } from './provider.ts'

type Deps = Pick<AppDeps, 'config' | 'database' | 'clock'>

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
