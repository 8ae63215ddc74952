import { describe, expect, it } from 'vitest'
import { placeOrder, tagItem } from '../../../tests/server/commerce.ts'
import { organizationWithAdmin } from '../../../tests/server/fixtures.ts'
import { setupTestApp } from '../../../tests/server/harness.ts'

const t = setupTestApp()

/** The amounts of the page's totals column, in cents, by label. */
function footAmounts(html: string): Array<[string, number]> {
  const foot = html.slice(html.indexOf('<tfoot>'), html.indexOf('</tfoot>'))
  return [...foot.matchAll(/<td colspan="2">([^<]+)<\/td><td class="n">([^<]+)<\/td>/g)].map((match) => {
    const amount = match[2]!.replace(/[^0-9.-]/g, '')
    return [match[1]!, Math.round(Number(amount) * 100)]
  })
}

describe('the sandbox page’s totals', () => {
  it('shows the subtotal before discount, then the discount, and the column adds up to the total', async () => {
    const { admin } = await organizationWithAdmin(t)
    const order = await placeOrder(t, admin.cookie, [tagItem(50)])
    expect(order.totals).toMatchObject({
      subtotalInCents: 11_000,
      discountInCents: 1500,
      shippingInCents: 790,
    })
    const session = await (
      await t.post(`/api/orders/${order.id}/sessions`, { cookie: admin.cookie, json: {} })
    ).json()
    const html = await (await t.get(`${new URL(session.url).pathname}?lang=en`)).text()
    const amounts = footAmounts(html)
    expect(amounts).toEqual([
      ['Subtotal', 12_500],
      ['Discount', -1500],
      ['Shipping', 790],
      [expect.stringContaining('VAT'), 2358],
      ['Total', 14_148],
    ])
    const total = amounts.pop()![1]
    expect(amounts.reduce((sum, [, cents]) => sum + cents, 0)).toBe(total)
  })
})
