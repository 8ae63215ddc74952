import type { Order } from '../../../contract/commerce.ts'
import type { Locale } from '../../../contract/locale.ts'
import { type MessageDescriptor, translator } from '../../i18n/translator.ts'

/** Texts of payments: line names (sandbox page, Stripe Checkout) and the sandbox checkout page. */
export const paymentMessages = {
  tagLine: /*i18n*/ { id: 'payment.line.tags', message: 'Tags “{name}” from {code}' },
  planMonthly: /*i18n*/ { id: 'payment.line.planMonthly', message: 'Plan {name}, monthly' },
  planYearly: /*i18n*/ { id: 'payment.line.planYearly', message: 'Plan {name}, yearly' },
  shipping: /*i18n*/ { id: 'payment.line.shipping', message: 'Shipping' },
  vat: /*i18n*/ { id: 'payment.line.vat', message: 'VAT ({rate} %)' },
  title: /*i18n*/ { id: 'payment.sandbox.title', message: 'Sandbox payment' },
  notice: /*i18n*/ {
    id: 'payment.sandbox.notice',
    message:
      'This is the sandbox checkout of Trousseau: no money changes hands. Choose how the payment ends.',
  },
  order: /*i18n*/ { id: 'payment.sandbox.order', message: 'Order {reference} for {organization}' },
  item: /*i18n*/ { id: 'payment.sandbox.item', message: 'Item' },
  quantity: /*i18n*/ { id: 'payment.sandbox.quantity', message: 'Quantity' },
  amount: /*i18n*/ { id: 'payment.sandbox.amount', message: 'Amount' },
  subtotal: /*i18n*/ { id: 'payment.sandbox.subtotal', message: 'Subtotal' },
  discount: /*i18n*/ { id: 'payment.sandbox.discount', message: 'Discount' },
  free: /*i18n*/ { id: 'payment.sandbox.free', message: 'Free' },
  total: /*i18n*/ { id: 'payment.sandbox.total', message: 'Total' },
  pay: /*i18n*/ { id: 'payment.sandbox.pay', message: 'Pay {total}' },
  fail: /*i18n*/ { id: 'payment.sandbox.fail', message: 'Simulate a failed payment' },
  cancel: /*i18n*/ { id: 'payment.sandbox.cancel', message: 'Cancel' },
  closed: /*i18n*/ {
    id: 'payment.sandbox.closed',
    message: 'This payment session is closed: nothing more can be done here.',
  },
  back: /*i18n*/ { id: 'payment.sandbox.back', message: 'Back to the order' },
} satisfies Record<string, MessageDescriptor>

export function paymentText(locale: Locale, descriptor: MessageDescriptor, values?: Record<string, unknown>) {
  return translator(locale)._({ ...descriptor, values })
}

export function formatEuros(locale: Locale, cents: number): string {
  return new Intl.NumberFormat(locale === 'en' ? 'en-IE' : 'fr-FR', {
    style: 'currency',
    currency: 'EUR',
  }).format(cents / 100)
}

/** The name of an order line as the payer reads it. */
export function lineName(locale: Locale, line: Order['lines'][number]): string {
  const config = line.configuration
  if ('alphaCode' in config) {
    const code = `${config.alphaCode}-${String(config.startNumber).padStart(5, '0')}`
    return paymentText(locale, paymentMessages.tagLine, { name: config.name, code })
  }
  const descriptor =
    config.billingCycle === 'YEARLY' ? paymentMessages.planYearly : paymentMessages.planMonthly
  return paymentText(locale, descriptor, { name: config.name })
}
