import type { Order } from '../../../contract/commerce.ts'
import type { Locale } from '../../../contract/locale.ts'
import { escapeHtml } from '../../html.ts'
import { formatEuros, lineName, paymentMessages, paymentText } from './messages.ts'

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f4f5;color:#18181b}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:.75rem;box-shadow:0 1px 3px #0002}
.badge{display:inline-block;background:#fef3c7;color:#92400e;border-radius:1rem;padding:.1rem .75rem;font-size:.85rem}
table{width:100%;border-collapse:collapse;margin:1rem 0}td,th{padding:.35rem 0;text-align:left}
td.n,th.n{text-align:right}tfoot td{border-top:1px solid #e4e4e7}tr.total td{font-weight:700}
form{display:inline}.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:1rem}
button{font:inherit;padding:.6rem 1rem;border-radius:.5rem;border:1px solid #a1a1aa;background:#fff;cursor:pointer}
button.pay{background:#1d4ed8;border-color:#1d4ed8;color:#fff}`

/** The app's icons, as index.html links them (the build serves both from its root). */
const ICON_LINKS =
  '<link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="apple-touch-icon" href="/icons/apple-touch-icon.png">'

type Page = { locale: Locale; title: string; body: string }

function layout({ locale, title, body }: Page): string {
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">${ICON_LINKS}<title>${escapeHtml(title)} – Trousseau</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`
}

/**
 * The sandbox checkout page: the order's lines and totals and three plain forms (no script: the CSP allows
 * none inline) posting the outcome to `<sessionId>/pay|fail|cancel`, relative to this page.
 */
export function sandboxPage(input: {
  locale: Locale
  sessionId: string
  order: Order
  /** The VAT rate the order's totals were computed with. */
  vatRatePercent: number
  open: boolean
  resultUrl: string
}): string {
  const { locale, order } = input
  const t = (descriptor: Parameters<typeof paymentText>[1], values?: Record<string, unknown>) =>
    escapeHtml(paymentText(locale, descriptor, values))
  const money = (cents: number) => escapeHtml(formatEuros(locale, cents))
  const title = t(paymentMessages.title)
  const heading = `<p class="badge">${title}</p><h1>${t(paymentMessages.order, {
    reference: order.reference,
    organization: order.organization.name,
  })}</h1>`
  if (!input.open) {
    return layout({
      locale,
      title,
      body: `${heading}<p>${t(paymentMessages.closed)}</p><p><a href="${escapeHtml(input.resultUrl)}">${t(paymentMessages.back)}</a></p>`,
    })
  }
  const rows = order.lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(lineName(locale, line))}</td><td class="n">${line.quantity}</td><td class="n">${money(line.lineTotalInCents)}</td></tr>`,
    )
    .join('')
  const { totals } = order
  // Subtotal before discount, then the discount: the column adds up to the total (like the browser's preview).
  const foot = [
    [t(paymentMessages.subtotal), money(totals.subtotalInCents + totals.discountInCents)],
    ...(totals.discountInCents > 0 ? [[t(paymentMessages.discount), money(-totals.discountInCents)]] : []),
    ...(order.quantity > 0
      ? [
          [
            t(paymentMessages.shipping),
            totals.freeShipping ? t(paymentMessages.free) : money(totals.shippingInCents),
          ],
        ]
      : []),
    [t(paymentMessages.vat, { rate: input.vatRatePercent }), money(totals.taxInCents)],
  ]
    .map(([label, amount]) => `<tr><td colspan="2">${label}</td><td class="n">${amount}</td></tr>`)
    .join('')
  const form = (outcome: string, label: string, className = '') =>
    `<form method="post" action="${escapeHtml(`${input.sessionId}/${outcome}?lang=${locale}`)}"><button type="submit"${className ? ` class="${className}"` : ''}>${label}</button></form>`
  return layout({
    locale,
    title,
    body: `${heading}<p>${t(paymentMessages.notice)}</p>
<table><thead><tr><th>${t(paymentMessages.item)}</th><th class="n">${t(paymentMessages.quantity)}</th><th class="n">${t(paymentMessages.amount)}</th></tr></thead>
<tbody>${rows}</tbody><tfoot>${foot}<tr class="total"><td colspan="2">${t(paymentMessages.total)}</td><td class="n">${money(totals.totalInCents)}</td></tr></tfoot></table>
<div class="actions">${form('pay', t(paymentMessages.pay, { total: formatEuros(locale, totals.totalInCents) }), 'pay')}${form('fail', t(paymentMessages.fail))}${form('cancel', t(paymentMessages.cancel))}</div>`,
  })
}
